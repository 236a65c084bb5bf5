import { plainCopy } from '../events/plain-copy.js';

/**
 * Arguments a host passes to `session.tool` (or a pack to `ctx.invoke`) must be what a model could
 * have sent: JSON. A BigInt, a function, a cycle, a Date or a class instance would otherwise fail
 * deep inside a tool, or be recorded in the log as something else than what the tool received.
 */

/** Nesting walked; deeper values are left to the schema check. */
const MAX_DEPTH = 256;

/** The first argument JSON cannot hold: its path (`args.a.b[2]`) and why; `undefined` when all can. */
export function nonJsonArg(args: unknown): { readonly field: string; readonly message: string } | undefined {
  // Most arguments are JSON: a walk that builds no paths says so; only a problem is walked again
  // to name where it is.
  return allJson(args, [], 0) ? undefined : walk(args, 'args', [], 0);
}

/** True when `v` is JSON data throughout (as {@link walk} judges it, without naming a path). */
function allJson(v: unknown, ancestors: object[], depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null || depth >= MAX_DEPTH) return true;
  if (ancestors.includes(v)) return false;
  if (!Array.isArray(v) && !isPlain(v)) return false;
  ancestors.push(v);
  try {
    for (const key of Object.keys(v))
      if (!allJson((v as Record<string, unknown>)[key], ancestors, depth + 1)) return false;
    return true;
  } catch {
    // A getter that threw: the walk that names paths says which.
    return false;
  } finally {
    ancestors.pop();
  }
}

function kindOf(v: object): string {
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null;
  const name = proto?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype';
}

// A plain object: no prototype, or a prototype whose own prototype is null and whose constructor is
// named Object (so a plain object made in another realm counts too).
function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null;
  return (
    proto === null ||
    proto === Object.prototype ||
    (Object.getPrototypeOf(proto) === null && proto.constructor?.name === 'Object')
  );
}

function walk(
  v: unknown,
  path: string,
  ancestors: object[],
  depth: number,
): { readonly field: string; readonly message: string } | undefined {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(v)
        ? undefined
        : { field: path, message: `is ${v}, which JSON cannot hold; allowed: a finite number` };
    case 'bigint':
      return { field: path, message: 'is a BigInt, which JSON cannot hold; pass a number or a string' };
    case 'function':
    case 'symbol':
      return { field: path, message: `is a ${typeof v}, which JSON cannot hold` };
  }
  if (v === null || depth >= MAX_DEPTH) return undefined;
  const o = v as object;
  if (ancestors.includes(o)) return { field: path, message: 'refers back to itself (a cycle), which JSON cannot hold' };
  const array = Array.isArray(o);
  if (!array && !isPlain(o))
    return { field: path, message: `is ${kindOf(o)}, not plain JSON; pass its JSON form (a Date as an ISO string)` };
  ancestors.push(o);
  try {
    for (const key of Object.keys(o)) {
      let item: unknown;
      try {
        item = (o as Record<string, unknown>)[key];
      } catch (e) {
        return { field: `${path}.${key}`, message: `could not be read: ${e instanceof Error ? e.message : String(e)}` };
      }
      const found = walk(item, array ? `${path}[${key}]` : `${path}.${key}`, ancestors, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
}

/** What {@link copyJson} returns for what is not JSON data (or is not copied here). */
const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * {@link nonJsonArg} and {@link detachedArgs} in one walk: the problem, or a private copy of
 * `args` when JSON can hold them.
 */
export function jsonArgsCopy(
  args: unknown,
): { readonly copy: unknown } | { readonly field: string; readonly message: string } {
  let copy: unknown = NOT_JSON;
  try {
    copy = copyJson(args, [], 0);
  } catch {
    // A getter that threw, or nesting too deep for the stack: judged and copied as before.
  }
  if (copy !== NOT_JSON) return { copy };
  return nonJsonArg(args) ?? { copy: detachedArgs(args) };
}

/** A copy of `v` when it is JSON data throughout (as {@link allJson} judges it), else {@link NOT_JSON}. */
function copyJson(v: unknown, ancestors: object[], depth: number): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : NOT_JSON;
    case 'object':
      break;
    default:
      return NOT_JSON;
  }
  if (v === null) return v;
  // Deeper values, arrays with holes or extra keys, and plain objects of another realm: the two walks.
  if (depth >= MAX_DEPTH || ancestors.includes(v)) return NOT_JSON;
  if (Array.isArray(v)) {
    if (Object.keys(v).length !== v.length) return NOT_JSON;
    ancestors.push(v);
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const item = copyJson(v[i], ancestors, depth + 1);
      if (item === NOT_JSON) return NOT_JSON;
      out[i] = item;
    }
    ancestors.pop();
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return NOT_JSON;
  ancestors.push(v);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const item = copyJson((v as Record<string, unknown>)[key], ancestors, depth + 1);
    if (item === NOT_JSON) return NOT_JSON;
    // A `__proto__` key (the model's, from JSON) stays a key: assigned, it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  ancestors.pop();
  return out;
}

/**
 * A private copy of a call's arguments (JSON by the time a call runs), so that no approver, hook
 * or tool changing the object it is given can change the caller's object, or the fact that
 * recorded the model's call. A value that cannot be copied is returned as it is.
 */
export function detachedArgs<T>(args: T): T {
  return plainCopy(args);
}
