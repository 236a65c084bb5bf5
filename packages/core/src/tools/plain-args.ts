/**
 * A fast path for tool arguments that needs neither ajv nor zod: a check of the few JSON Schema
 * keywords plain tool schemas use (types, lengths, ranges, enums, patterns, required and closed
 * objects, records of strings, arrays, nullable, any value), and the copy a plain zod schema would
 * make of valid arguments (known fields only, defaults filled in). It answers only when it is
 * sure: the value it accepts is accepted by ajv and by zod alike, and anything else (an unknown
 * keyword, a failure, a value JSON cannot carry) is {@link UNSURE}, for the full validator to
 * judge and explain.
 */
import type { JsonSchema } from './json-schema.js';

/** The fast path could not decide: ask ajv (and zod) instead. */
export const UNSURE: unique symbol = Symbol('unsure');
type Unsure = typeof UNSURE;

/** Keywords that do not constrain the value. */
const ANNOTATIONS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
/** Keywords this check understands. */
const KNOWN = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'anyOf',
  'pattern',
  'propertyNames',
]);
const MAX_DEPTH = 64;

type Schema = Readonly<Record<string, unknown>>;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPrimitive = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
/** A value JSON carries unchanged: primitives, arrays and plain objects of them. */
export function isJsonValue(v: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isPrimitive(v)) return true;
  if (Array.isArray(v)) return v.every((x) => isJsonValue(x, depth + 1));
  if (!isPlainObject(v)) return false;
  return Object.values(v).every((x) => isJsonValue(x, depth + 1));
}
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Whether `s` has at least `min` code points (ajv counts string lengths in them; zod in UTF-16 units). */
function codePointsAtLeast(s: string, min: number): boolean {
  if (s.length < min) return false;
  let n = 0;
  for (let i = 0; i < s.length && n < min; i++) {
    const c = s.charCodeAt(i);
    n += 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i += 1;
    }
  }
  return n >= min;
}

/** The `anyOf: [X, {type: 'null'}]` form zod gives a nullable field: X, or `undefined` for any other `anyOf`. */
function nullableBranch(anyOf: unknown): Schema | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [a, b] = anyOf as unknown[];
  const isNull = (s: unknown): boolean => isSchema(s) && Object.keys(s).length === 1 && s.type === 'null';
  if (isSchema(a) && isNull(b)) return a;
  if (isSchema(b) && isNull(a)) return b;
  return undefined;
}

/** A `pattern` as ajv reads it (Unicode mode) and as the zod regex it came from (no flags). */
const patterns = new Map<string, readonly [RegExp, RegExp] | null>();
function compiled(pattern: string): readonly [RegExp, RegExp] | null {
  let pair = patterns.get(pattern);
  if (pair === undefined) {
    try {
      pair = [new RegExp(pattern, 'u'), new RegExp(pattern)];
    } catch {
      pair = null;
    }
    if (patterns.size < 1000) patterns.set(pattern, pair);
  }
  return pair;
}

function checkString(s: Schema, v: string): boolean {
  if (s.pattern !== undefined) {
    const pair = typeof s.pattern === 'string' ? compiled(s.pattern) : null;
    if (pair === null || !pair[0].test(v) || !pair[1].test(v)) return false;
  }
  if (s.minLength !== undefined && !(isCount(s.minLength) && codePointsAtLeast(v, s.minLength))) return false;
  if (s.maxLength !== undefined && !(isCount(s.maxLength) && v.length <= s.maxLength)) return false;
  return true;
}

function checkNumber(s: Schema, v: number): boolean {
  const bound = (k: string, ok: (b: number) => boolean): boolean => {
    const b = s[k];
    return b === undefined || (typeof b === 'number' && Number.isFinite(b) && ok(b));
  };
  if (!bound('minimum', (b) => v >= b) || !bound('maximum', (b) => v <= b)) return false;
  if (!bound('exclusiveMinimum', (b) => v > b) || !bound('exclusiveMaximum', (b) => v < b)) return false;
  // Only whole multiples of whole numbers: ajv and zod round fractions differently.
  return bound('multipleOf', (m) => Number.isSafeInteger(m) && m > 0 && Number.isSafeInteger(v) && v % m === 0);
}

/** Whether the `type` of `s` (a name or a list of names) allows `name`. */
const allows = (s: Schema, name: string): boolean =>
  s.type === name || (Array.isArray(s.type) && s.type.includes(name));

function typeMatches(type: unknown, v: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => typeMatches(t, v));
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'object':
      return isPlainObject(v);
    case 'array':
      return Array.isArray(v);
    default:
      return false;
  }
}

/** Checks `v` against `s` and, with `copy`, returns the parsed copy; {@link UNSURE} when not sure. */
function walk(s: unknown, v: unknown, copy: boolean, depth: number): unknown {
  if (!isSchema(s) || depth > MAX_DEPTH) return UNSURE;
  let constrained = false;
  for (const k of Object.keys(s)) {
    if (KNOWN.has(k)) constrained = true;
    else if (!ANNOTATIONS.has(k)) return UNSURE;
  }
  // A schema without constraints (zod's `unknown`) takes any value, and zod passes it on as it is.
  if (!constrained) return v === undefined ? UNSURE : v;
  if (s.anyOf !== undefined) {
    const inner = nullableBranch(s.anyOf);
    if (inner === undefined || Object.keys(s).some((k) => k !== 'anyOf' && KNOWN.has(k))) return UNSURE;
    return v === null ? null : walk(inner, v, copy, depth + 1);
  }
  if (s.type !== undefined && !typeMatches(s.type, v)) return UNSURE;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.every(isPrimitive) && s.enum.includes(v)))
    return UNSURE;
  if (s.const !== undefined && !(isPrimitive(s.const) && s.const === v)) return UNSURE;
  if (typeof v === 'string') return checkString(s, v) ? v : UNSURE;
  if (typeof v === 'number') return Number.isFinite(v) && checkNumber(s, v) ? v : UNSURE;
  if (typeof v === 'boolean' || v === null) return v;
  if (Array.isArray(v)) return walkArray(s, v, copy, depth);
  if (isPlainObject(v)) return walkObject(s, v, copy, depth);
  return UNSURE;
}

function walkArray(s: Schema, v: readonly unknown[], copy: boolean, depth: number): unknown {
  if (!allows(s, 'array')) return UNSURE;
  if (s.minItems !== undefined && !(isCount(s.minItems) && v.length >= s.minItems)) return UNSURE;
  if (s.maxItems !== undefined && !(isCount(s.maxItems) && v.length <= s.maxItems)) return UNSURE;
  const out: unknown[] = copy ? [] : (v as unknown[]);
  for (let i = 0; i < v.length; i++) {
    if (!(i in v)) return UNSURE;
    const item = s.items === undefined ? UNSURE : walk(s.items, v[i], copy, depth + 1);
    if (item === UNSURE) return UNSURE;
    if (copy) out.push(item);
  }
  return out;
}

/** The default of a field: its own, or that of the non-null branch of a nullable field. */
function defaultOf(field: unknown): unknown {
  if (!isSchema(field)) return undefined;
  if (field.default !== undefined) return field.default;
  const inner = field.anyOf === undefined ? undefined : nullableBranch(field.anyOf);
  return inner === undefined ? undefined : defaultOf(inner);
}

/** The value schema of a record (`propertyNames: {type: 'string'}` and `additionalProperties: X`), or `undefined`. */
function recordValues(s: Schema): Schema | undefined {
  const names = s.propertyNames;
  if (names === undefined) return undefined;
  const stringNames = isSchema(names) && Object.keys(names).length === 1 && names.type === 'string';
  if (!stringNames || s.properties !== undefined || s.required !== undefined) return undefined;
  return isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
}

/** A record's copy: every own key (none inherited, no symbol, no `__proto__`), each value checked. */
function walkRecord(values: Schema, v: Readonly<Record<string, unknown>>, copy: boolean, depth: number): unknown {
  if (Object.getOwnPropertySymbols(v).length > 0) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const key in v) {
    if (!Object.hasOwn(v, key) || key === '__proto__' || v[key] === undefined) return UNSURE;
    const value = walk(values, v[key], copy, depth + 1);
    if (value === UNSURE) return UNSURE;
    if (copy) out[key] = value;
  }
  return copy ? out : v;
}

function walkObject(s: Schema, v: Readonly<Record<string, unknown>>, copy: boolean, depth: number): unknown {
  if (!allows(s, 'object')) return UNSURE;
  if (s.propertyNames !== undefined) {
    const values = recordValues(s);
    return values === undefined ? UNSURE : walkRecord(values, v, copy, depth);
  }
  const props = s.properties === undefined ? {} : s.properties;
  if (!isSchema(props)) return UNSURE;
  const required = s.required === undefined ? [] : s.required;
  if (!Array.isArray(required)) return UNSURE;
  // A name an object inherits would be read from the prototype by both validators.
  for (const name of Object.keys(props)) if (name in Object.prototype) return UNSURE;
  for (const name of required) if (typeof name !== 'string' || !Object.hasOwn(props, name)) return UNSURE;
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) return UNSURE;
  const closed = s.additionalProperties === false;
  for (const key in v) {
    if (!Object.hasOwn(v, key)) return UNSURE;
    if (!Object.hasOwn(props, key)) {
      if (closed) return UNSURE;
      continue;
    }
    if (v[key] === undefined) return UNSURE;
  }
  for (const name of required) if (!Object.hasOwn(v, name)) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(props)) {
    if (Object.hasOwn(v, name)) {
      const value = walk(field, v[name], copy, depth + 1);
      if (value === UNSURE) return UNSURE;
      if (copy) out[name] = value;
    } else if (copy) {
      // A default is used as given: it is not checked against its own schema, as zod does not.
      const fallback = defaultOf(field);
      if (fallback !== undefined) out[name] = structuredClone(fallback);
    }
  }
  return copy ? out : v;
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;
const plainSchemas = new WeakMap<object, boolean>();

/** Whether every node of `s` uses only the keywords, and the forms of them, the fast path knows. */
function isPlainSchema(s: unknown, depth = 0): boolean {
  if (!isSchema(s) || depth > MAX_DEPTH) return false;
  for (const k of Object.keys(s)) if (!KNOWN.has(k) && !ANNOTATIONS.has(k)) return false;
  if (s.anyOf !== undefined) {
    const inner = nullableBranch(s.anyOf);
    return (
      inner !== undefined &&
      !Object.keys(s).some((k) => k !== 'anyOf' && KNOWN.has(k)) &&
      isPlainSchema(inner, depth + 1)
    );
  }
  const types = typeof s.type === 'string' ? [s.type] : s.type;
  if (types !== undefined && !(Array.isArray(types) && types.length > 0 && types.every((t) => TYPES.has(t))))
    return false;
  if (Array.isArray(types) && new Set(types).size !== types.length) return false;
  if (s.default !== undefined && !isJsonValue(s.default)) return false;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(isPrimitive))) return false;
  if (s.const !== undefined && !isPrimitive(s.const)) return false;
  for (const k of COUNTS) if (s[k] !== undefined && !isCount(s[k])) return false;
  for (const k of NUMERIC) if (s[k] !== undefined && !(typeof s[k] === 'number' && Number.isFinite(s[k]))) return false;
  if (s.pattern !== undefined && !(typeof s.pattern === 'string' && compiled(s.pattern) !== null)) return false;
  if (s.multipleOf !== undefined && !(Number.isSafeInteger(s.multipleOf) && (s.multipleOf as number) > 0)) return false;
  if (s.items !== undefined && (!allows(s, 'array') || !isPlainSchema(s.items, depth + 1))) return false;
  if (allows(s, 'array') && s.items === undefined) return false;
  const objectish =
    s.properties !== undefined ||
    s.required !== undefined ||
    s.additionalProperties !== undefined ||
    s.propertyNames !== undefined;
  if (objectish && !allows(s, 'object')) return false;
  if (allows(s, 'object')) {
    const props = s.properties ?? {};
    if (!isSchema(props)) return false;
    for (const [name, field] of Object.entries(props)) {
      // A name an object inherits would be read from the prototype by both validators.
      if (name in Object.prototype || !isPlainSchema(field, depth + 1)) return false;
    }
    const required = s.required ?? [];
    if (!Array.isArray(required) || !required.every((n) => typeof n === 'string' && Object.hasOwn(props, n)))
      return false;
    if (s.propertyNames !== undefined) {
      const values = recordValues(s);
      return values !== undefined && isPlainSchema(values, depth + 1);
    }
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) return false;
  }
  return true;
}

/** {@link isPlainSchema}, remembered per schema object. */
function plain(schema: JsonSchema): boolean {
  let known = plainSchemas.get(schema);
  if (known === undefined) {
    known = isPlainSchema(schema);
    plainSchemas.set(schema, known);
  }
  return known;
}

/**
 * `true` when `args` surely satisfy `schema` (ajv would accept them); `false` when the fast path
 * cannot tell (then the full validator decides).
 */
export function surelyValidArgs(schema: JsonSchema, args: unknown): boolean {
  return plain(schema) && walk(schema, args, false, 0) !== UNSURE;
}

/**
 * The arguments a plain zod schema would parse `args` into, read from its JSON Schema (the
 * `io: 'input'` one zod derives): a fresh copy with only the known fields, defaults filled in.
 * {@link UNSURE} when the fast path cannot tell (then zod parses, and explains any error).
 */
export function parsePlainArgs(schema: JsonSchema, args: unknown): Record<string, unknown> | Unsure {
  if (!isPlainObject(args) || !plain(schema)) return UNSURE;
  const out = walk(schema, args, true, 0);
  return out === UNSURE ? UNSURE : (out as Record<string, unknown>);
}
