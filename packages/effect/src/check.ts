import { FactValidationError } from './errors.js';

/**
 * Small runtime checkers used to validate fact payloads. Each throws a
 * {@link FactValidationError} naming the fact type and the full field path.
 */
export class Checker {
  constructor(readonly factType: string) {}

  fail(field: string, problem: string): never {
    throw new FactValidationError(this.factType, field, problem);
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(field, `must be an object, got ${describe(value)}`);
    }
    return value as Record<string, unknown>;
  }

  string(obj: Record<string, unknown>, name: string, path: string, opts: { nonEmpty?: boolean } = {}): string {
    const v = obj[name];
    if (typeof v !== 'string') this.fail(`${path}.${name}`, `must be a string, got ${describe(v)}`);
    if (opts.nonEmpty && v.length === 0) this.fail(`${path}.${name}`, 'must be a non-empty string');
    return v;
  }

  optString(obj: Record<string, unknown>, name: string, path: string): string | undefined {
    const v = obj[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') this.fail(`${path}.${name}`, `must be a string or absent, got ${describe(v)}`);
    return v;
  }

  boolean(obj: Record<string, unknown>, name: string, path: string): boolean {
    const v = obj[name];
    if (typeof v !== 'boolean') this.fail(`${path}.${name}`, `must be true or false, got ${describe(v)}`);
    return v;
  }

  optBoolean(obj: Record<string, unknown>, name: string, path: string): boolean | undefined {
    const v = obj[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') this.fail(`${path}.${name}`, `must be true, false or absent, got ${describe(v)}`);
    return v;
  }

  integer(obj: Record<string, unknown>, name: string, path: string, min = 0): number {
    const v = obj[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
      this.fail(`${path}.${name}`, `must be an integer >= ${min}, got ${describe(v)}`);
    }
    return v;
  }

  optNumber(obj: Record<string, unknown>, name: string, path: string): number | undefined {
    const v = obj[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v))
      this.fail(`${path}.${name}`, `must be a finite number or absent, got ${describe(v)}`);
    return v;
  }

  oneOf<T extends string>(obj: Record<string, unknown>, name: string, path: string, allowed: readonly T[]): T {
    const v = obj[name];
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      this.fail(`${path}.${name}`, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${describe(v)}`);
    }
    return v as T;
  }

  array(obj: Record<string, unknown>, name: string, path: string): unknown[] {
    const v = obj[name];
    if (!Array.isArray(v)) this.fail(`${path}.${name}`, `must be an array, got ${describe(v)}`);
    return v;
  }
}

/** A short description of a value's JSON type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} chars` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'nothing';
  return `a${typeof value === 'object' ? 'n object' : ` ${typeof value}`}`;
}

/**
 * Asserts that `value` survives a JSON round trip unchanged: plain objects, arrays, strings,
 * finite numbers, booleans and null only. Anything else (undefined, functions, NaN, Dates,
 * Maps, class instances, cycles) would be silently altered by the log's encoding.
 * @returns true when `value` holds a `-0`, which the encoding writes as `0` (the caller stores
 *   the value as read back, so the log in memory equals the log on disk).
 */
export function assertJsonValue(factType: string, value: unknown, path: string, depth = 0): boolean {
  if (depth > 256) throw new FactValidationError(factType, path, 'is nested deeper than 256 levels (or cyclic)');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return false;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FactValidationError(factType, path, `must be a finite number, got ${value}`);
    return Object.is(value, -0);
  }
  let negativeZero = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (assertJsonValue(factType, value[i], `${path}[${i}]`, depth + 1)) negativeZero = true;
    return negativeZero;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      throw new FactValidationError(factType, path, 'must be a plain JSON object (not a class instance, Date or Map)');
    }
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined)
        throw new FactValidationError(factType, `${path}.${k}`, 'is undefined; omit the field or use null');
      if (assertJsonValue(factType, v, `${path}.${k}`, depth + 1)) negativeZero = true;
    }
    return negativeZero;
  }
  throw new FactValidationError(factType, path, `must be a JSON value, got ${typeof value}`);
}
