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

/**
 * A private copy of a call's arguments (JSON by the time a call runs), so that no approver, hook
 * or tool changing the object it is given can change the caller's object, or the fact that
 * recorded the model's call. A value that cannot be copied is returned as it is.
 */
export function detachedArgs<T>(args: T): T {
  return plainCopy(args);
}
