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
  if (skipped(value)) return { chars: 0, complete: true };
  const m: Measure = { n: 0, values: 0, limit, maxValues, open: [] };
  try {
    const complete = walk(m, value);
    return { chars: m.n, complete };
  } catch {
    // Not plain, or a getter that threw, or nesting too deep for the stack: JSON.stringify decides.
    return undefined;
  }
}

/** The state of one measure. */
interface Measure {
  n: number;
  values: number;
  readonly limit: number;
  readonly maxValues: number;
  /** The objects being walked, outermost first (a cycle comes back to one of them). */
  readonly open: object[];
}

/** Nesting from which each object is checked against those open (a cycle nests without end). */
const CYCLE_CHECK_DEPTH = 32;

function string(m: Measure, s: string): boolean {
  m.n += m.n + s.length + 2 > m.limit || !ESCAPED.test(s) ? s.length + 2 : JSON.stringify(s).length;
  return m.n <= m.limit;
}

/** Counts `v`; false once a limit is passed; throws {@link NOT_PLAIN}. */
function walk(m: Measure, v: unknown): boolean {
  if (++m.values > m.maxValues) return false;
  if (typeof v === 'string') return string(m, v);
  if (typeof v === 'number') m.n += Number.isFinite(v) ? String(v).length : 4;
  else if (typeof v === 'boolean') m.n += v ? 4 : 5;
  else if (v === null || skipped(v)) m.n += 4;
  else if (typeof v !== 'object') throw NOT_PLAIN;
  else {
    const open = m.open;
    if (open.length > MAX_DEPTH || (open.length >= CYCLE_CHECK_DEPTH && open.includes(v))) throw NOT_PLAIN;
    open.push(v);
    const within = Array.isArray(v) ? walkArray(m, v) : walkObject(m, v);
    open.pop();
    return within;
  }
  return m.n <= m.limit;
}

function walkArray(m: Measure, a: readonly unknown[]): boolean {
  m.n += 2 + Math.max(0, a.length - 1);
  for (let i = 0; i < a.length; i++) if (m.n > m.limit || !walk(m, a[i])) return false;
  return m.n <= m.limit;
}

function walkObject(m: Measure, o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof (o as { toJSON?: unknown }).toJSON === 'function')
    throw NOT_PLAIN;
  m.n += 2;
  let first = true;
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    const item = (o as Record<string, unknown>)[key];
    if (skipped(item)) continue;
    m.n += first ? 1 : 2;
    first = false;
    if (!string(m, key) || !walk(m, item)) return false;
  }
  return m.n <= m.limit;
}

/** What JSON leaves out of an object (and writes as `null` in an array, and as nothing at the top). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** What {@link copyWithin} returns for a value it did not copy. */
export const NOT_COPIED: unique symbol = Symbol('not copied');

/**
 * A deep copy of `value` made in the walk that measures it, when it is plain JSON data whose JSON
 * is at most `limit` characters (counted as {@link jsonChars} counts); {@link NOT_COPIED}
 * otherwise (past the limit, a function, a class instance, a cycle, a getter that threw). Keys
 * holding `undefined` are kept, as a hand copy keeps them.
 */
export function copyWithin(value: unknown, limit: number): unknown {
  if (value === undefined) return undefined;
  const m: Measure = { n: 0, values: 0, limit, maxValues: Number.POSITIVE_INFINITY, open: [] };
  try {
    return copyWalk(m, value);
  } catch {
    return NOT_COPIED;
  }
}

/** Counts and copies `v`; throws {@link NOT_PLAIN} past the limit or for what is not plain. */
function copyWalk(m: Measure, v: unknown): unknown {
  if (typeof v === 'string') {
    if (!string(m, v)) throw NOT_PLAIN;
    return v;
  }
  if (typeof v === 'number') m.n += Number.isFinite(v) ? String(v).length : 4;
  else if (typeof v === 'boolean') m.n += v ? 4 : 5;
  else if (v === null || v === undefined) m.n += 4;
  else if (typeof v !== 'object') throw NOT_PLAIN;
  else {
    const open = m.open;
    if (open.length > MAX_DEPTH || (open.length >= CYCLE_CHECK_DEPTH && open.includes(v))) throw NOT_PLAIN;
    open.push(v);
    const copy = Array.isArray(v) ? copyArray(m, v) : copyObject(m, v);
    open.pop();
    if (m.n > m.limit) throw NOT_PLAIN;
    return copy;
  }
  if (m.n > m.limit) throw NOT_PLAIN;
  return v;
}

function copyArray(m: Measure, a: readonly unknown[]): unknown[] {
  m.n += 2 + Math.max(0, a.length - 1);
  const out: unknown[] = new Array(a.length);
  for (let i = 0; i < a.length; i++) {
    if (m.n > m.limit) throw NOT_PLAIN;
    out[i] = copyWalk(m, a[i]);
  }
  return out;
}

function copyObject(m: Measure, o: object): Record<string, unknown> {
  const proto = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof (o as { toJSON?: unknown }).toJSON === 'function')
    throw NOT_PLAIN;
  m.n += 2;
  const out: Record<string, unknown> = {};
  let first = true;
  for (const key of Object.keys(o)) {
    const item = (o as Record<string, unknown>)[key];
    let copy: unknown;
    if (item === undefined) copy = undefined;
    else {
      m.n += first ? 1 : 2;
      first = false;
      if (!string(m, key)) throw NOT_PLAIN;
      copy = copyWalk(m, item);
    }
    // A `__proto__` key (the model's, from JSON) stays a key: assigned, it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}
