/**
 * Tool metadata as the fact log and the events can hold it: a tool (a pack's, an MCP server's, the
 * host's) may return values JSON cannot carry or that throw when read. They must never fail a run
 * after the tool already acted, nor break a consumer that serializes events.
 */

/** Nesting kept when a value has to be walked (JSON of a well-formed value is not limited). */
const MAX_DEPTH = 64;

const replacer = (_key: string, v: unknown): unknown =>
  typeof v === 'number' && !Number.isFinite(v) ? null : typeof v === 'bigint' ? String(v) : v;

/**
 * A copy of `value` that survives a JSON round trip unchanged: non-finite numbers become `null`,
 * big integers strings, and what JSON drops is dropped. A value JSON cannot serialize at all
 * (a cycle, a getter or `toJSON` that throws) is walked instead, with `"[circular]"`,
 * `"[unreadable: …]"` and `"[too deep]"` in place of the parts that cannot be kept.
 */
export function jsonSafe(value: unknown): Record<string, unknown> {
  let copy: unknown;
  try {
    const json = JSON.stringify(value, replacer);
    copy = json === undefined ? undefined : JSON.parse(json);
  } catch {
    copy = walk(value, [], 0);
  }
  // Metadata is a record; anything else a tool returned is kept under `value`.
  return copy !== null && typeof copy === 'object' && !Array.isArray(copy)
    ? (copy as Record<string, unknown>)
    : { value: copy ?? null };
}

function unreadable(e: unknown): string {
  let why: string;
  try {
    why = e instanceof Error ? e.message : String(e);
  } catch {
    why = 'an exception';
  }
  return `[unreadable: ${why.slice(0, 200)}]`;
}

function walk(v: unknown, ancestors: object[], depth: number): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return String(v);
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v !== 'object') return undefined;
  if (ancestors.includes(v)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  ancestors.push(v);
  try {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(v), ancestors, depth + 1);
    if (Array.isArray(v)) return v.map((item) => walk(item, ancestors, depth + 1) ?? null);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      let item: unknown;
      try {
        item = (v as Record<string, unknown>)[key];
      } catch (e) {
        item = unreadable(e);
      }
      const kept = walk(item, ancestors, depth + 1);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  } catch (e) {
    return unreadable(e);
  } finally {
    ancestors.pop();
  }
}
