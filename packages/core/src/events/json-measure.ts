/**
 * The length of a value's JSON, counted without writing it and only up to limits: an event's
 * preview decides whether arguments fit without serialising 4 MB of them. The count is exact
 * for plain JSON data within the limits; past them, counting stops.
 */

/** Characters a JSON string escapes (quotes, backslashes, controls) or may (lone surrogates). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Nesting followed before the value counts as not plain (JSON.stringify then decides). */
const MAX_DEPTH = 1000;

/** Thrown inside the walk for what is not plain JSON data. */
const NOT_PLAIN: unique symbol = Symbol('not plain');

/** A measured JSON length. */
export interface JsonChars {
  /** The length of `JSON.stringify(value)` in UTF-16 code units when `complete`; else a lower bound of it. */
  readonly chars: number;
  /** False when counting stopped at a limit. */
  readonly complete: boolean;
}

/**
 * The JSON length of `value`, counted until it passes `limit` characters or `maxValues` values
 * (each value counts at least one character, so a count stopped by `maxValues` is at least
 * `maxValues`). `undefined` for what is not plain JSON data (a `toJSON` method, a class instance,
 * a cycle, a BigInt, nesting deeper than {@link MAX_DEPTH}): only `JSON.stringify` measures that.
 */
export function jsonChars(value: unknown, limit: number, maxValues: number): JsonChars | undefined {
  let n = 0;
  let values = 0;
  const open = new Set<object>();
  const string = (s: string): boolean => {
    n += n + s.length + 2 > limit || !ESCAPED.test(s) ? s.length + 2 : JSON.stringify(s).length;
    return n <= limit;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (++values > maxValues) return false;
    if (typeof v === 'string') return string(v);
    if (typeof v === 'number') n += Number.isFinite(v) ? String(v).length : 4;
    else if (typeof v === 'boolean') n += v ? 4 : 5;
    else if (v === null || skipped(v)) n += 4;
    else if (typeof v !== 'object' || depth > MAX_DEPTH || open.has(v)) throw NOT_PLAIN;
    else {
      open.add(v);
      const within = Array.isArray(v) ? walkArray(v, depth) : walkObject(v, depth);
      open.delete(v);
      return within;
    }
    return n <= limit;
  };
  const walkArray = (a: readonly unknown[], depth: number): boolean => {
    n += 2 + Math.max(0, a.length - 1);
    for (let i = 0; i < a.length; i++) if (n > limit || !walk(a[i], depth + 1)) return false;
    return n <= limit;
  };
  const walkObject = (o: object, depth: number): boolean => {
    const proto = Object.getPrototypeOf(o);
    if ((proto !== Object.prototype && proto !== null) || typeof (o as { toJSON?: unknown }).toJSON === 'function')
      throw NOT_PLAIN;
    n += 2;
    let first = true;
    for (const key in o) {
      if (!Object.hasOwn(o, key)) continue;
      const item = (o as Record<string, unknown>)[key];
      if (skipped(item)) continue;
      n += first ? 1 : 2;
      first = false;
      if (!string(key) || !walk(item, depth + 1)) return false;
    }
    return n <= limit;
  };
  try {
    if (skipped(value)) return { chars: 0, complete: true };
    const complete = walk(value, 0);
    return { chars: n, complete };
  } catch {
    // Not plain, or a getter that threw, or nesting too deep for the stack: JSON.stringify decides.
    return undefined;
  }
}

/** What JSON leaves out of an object (and writes as `null` in an array, and as nothing at the top). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}
