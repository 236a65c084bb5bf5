/**
 * Digests of catalog content: SHA-256 over a canonical JSON text (object keys sorted, `undefined`
 * and functions left out), so equal content gives equal digests in any process.
 */
import { createHash } from 'node:crypto';

/** The canonical JSON text of `value`: keys sorted at every depth; non-JSON values left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (isJson(v) ? canonicalJson(v) : 'null')).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => isJson(o[k]))
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return 'null';
}

function isJson(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol' && typeof v !== 'bigint';
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
