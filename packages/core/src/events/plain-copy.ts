/**
 * Deep copies of the JSON-shaped values a call carries (its arguments), made by hand: for the
 * small objects of a tool call this is several times faster than `structuredClone`, which
 * serialises. Anything that is not plain JSON data (a class instance, a `Map`, a cycle, nesting
 * too deep for the stack) is copied by `structuredClone`, and a value even that cannot copy is
 * returned as it is.
 */
export function plainCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  try {
    const copy = copyPlain(value);
    if (copy !== NOT_PLAIN) return copy as T;
  } catch {
    // Nesting too deep for the stack (or a cycle): structuredClone copies what it can.
  }
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

const NOT_PLAIN: unique symbol = Symbol('not plain');

function copyPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? NOT_PLAIN : value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copyPlain(value[i]);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyPlain((value as Record<string, unknown>)[key]);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    // A `__proto__` key (the model's, from JSON) stays a key: assigned, it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
