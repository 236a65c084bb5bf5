/**
 * The JSON Schema subset of the argument fast path (`plain-args.ts`), compiled once per schema
 * into a checker: types, lengths, ranges, enums, patterns, required and closed objects, records of
 * strings, arrays, nullable and unconstrained values. A schema with any other keyword, or a form
 * of one this does not know, does not compile: its calls always go to ajv.
 */

/** The checker could not decide: ask ajv (and zod) instead. */
export const UNSURE: unique symbol = Symbol('unsure');

/** Checks `v`; with `copy`, returns the copy a plain zod schema would make, else `v`; or {@link UNSURE}. */
export type PlainCheck = (v: unknown, copy: boolean) => unknown;

type Schema = Readonly<Record<string, unknown>>;

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
/** Keywords this check understands (every one constrains the value). */
export const KNOWN: ReadonlySet<string> = new Set([
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
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;
/** How deep a schema, or a value, the fast path follows. */
export const MAX_DEPTH = 64;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A JSON primitive: `null`, a string, a boolean or a finite number. */
export const isPrimitive = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || isFiniteNumber(v);
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
/** An object whose prototype is `Object.prototype` or `null` (what `JSON.parse` makes). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A value JSON carries unchanged: primitives, arrays and plain objects of them. */
export function isJsonValue(v: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isPrimitive(v)) return true;
  if (Array.isArray(v)) return v.every((x) => isJsonValue(x, depth + 1));
  if (!isPlainObject(v)) return false;
  return Object.values(v).every((x) => isJsonValue(x, depth + 1));
}

/** A fresh copy of a JSON value (a default: every call gets its own arrays and objects). */
export function copyJson(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyJson((v as Record<string, unknown>)[k]);
  return out;
}

/** Whether `s` has at least `min` code points (ajv counts string lengths in them; zod in UTF-16 units). */
export function codePointsAtLeast(s: string, min: number): boolean {
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

/** A `pattern` as ajv reads it (Unicode mode) and as the zod regex it came from (no flags). */
export function patternTest(pattern: unknown): ((s: string) => boolean) | undefined {
  if (typeof pattern !== 'string') return undefined;
  try {
    const unicode = new RegExp(pattern, 'u');
    const plain = new RegExp(pattern);
    return (s) => unicode.test(s) && plain.test(s);
  } catch {
    return undefined;
  }
}

/** The `anyOf: [X, {type: 'null'}]` form zod gives a nullable field: X, or `undefined` for any other `anyOf`. */
export function nullableBranch(anyOf: unknown): Schema | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [a, b] = anyOf as unknown[];
  const isNull = (s: unknown): boolean => isSchema(s) && Object.keys(s).length === 1 && s.type === 'null';
  if (isSchema(a) && isNull(b)) return a;
  if (isSchema(b) && isNull(a)) return b;
  return undefined;
}

/** The default of a field: its own, or that of the non-null branch of a nullable field. */
export function defaultOf(field: Schema): unknown {
  if (field.default !== undefined) return field.default;
  const inner = field.anyOf === undefined ? undefined : nullableBranch(field.anyOf);
  return inner === undefined ? undefined : defaultOf(inner);
}

const TYPE_TESTS: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: isFiniteNumber,
  integer: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  object: isPlainObject,
  array: Array.isArray,
};

const ANY: PlainCheck = (v) => (v === undefined ? UNSURE : v);

/** Compiles `s`, or `undefined` when it uses anything outside the subset. */
export function compilePlain(s: unknown, depth = 0): PlainCheck | undefined {
  if (!isSchema(s) || depth > MAX_DEPTH) return undefined;
  let constrained = false;
  for (const k of Object.keys(s)) {
    if (KNOWN.has(k)) constrained = true;
    else if (!ANNOTATIONS.has(k)) return undefined;
  }
  if (s.default !== undefined && !isJsonValue(s.default)) return undefined;
  // A schema without constraints (zod's `unknown`) takes any value, and zod passes it on as it is.
  if (!constrained) return ANY;
  if (s.anyOf !== undefined) {
    const branch = nullableBranch(s.anyOf);
    if (branch === undefined || Object.keys(s).some((k) => k !== 'anyOf' && KNOWN.has(k))) return undefined;
    const inner = compilePlain(branch, depth + 1);
    return inner === undefined ? undefined : (v, copy) => (v === null ? null : inner(v, copy));
  }
  const types = typeof s.type === 'string' ? [s.type] : s.type;
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length === 0 || !types.every((t) => TYPES.has(t))) return undefined;
    if (new Set(types).size !== types.length) return undefined;
  }
  const allows = (name: string): boolean => types === undefined || (types as string[]).includes(name);
  const enumValues = s.enum;
  if (
    enumValues !== undefined &&
    !(Array.isArray(enumValues) && enumValues.length > 0 && enumValues.every(isPrimitive))
  )
    return undefined;
  const hasConst = s.const !== undefined;
  if (hasConst && !isPrimitive(s.const)) return undefined;
  for (const k of COUNTS) if (s[k] !== undefined && !isCount(s[k])) return undefined;
  for (const k of NUMERIC) if (s[k] !== undefined && !isFiniteNumber(s[k])) return undefined;
  // Only whole multiples of whole numbers: ajv and zod round fractions differently.
  if (s.multipleOf !== undefined && !(Number.isSafeInteger(s.multipleOf) && (s.multipleOf as number) > 0))
    return undefined;
  const pattern = s.pattern === undefined ? null : patternTest(s.pattern);
  if (pattern === undefined) return undefined;
  const objectish =
    s.properties !== undefined ||
    s.required !== undefined ||
    s.additionalProperties !== undefined ||
    s.propertyNames !== undefined;
  if (objectish && !(types !== undefined && allows('object'))) return undefined;
  if (s.items !== undefined && !(types !== undefined && allows('array'))) return undefined;
  const array = types !== undefined && allows('array') ? compileArray(s, depth) : null;
  const object = types !== undefined && allows('object') ? compileObject(s, depth) : null;
  if (array === undefined || object === undefined) return undefined;
  const typeOk =
    types === undefined
      ? null
      : types.length === 1
        ? TYPE_TESTS[types[0] as string]!
        : (v: unknown) => (types as string[]).some((t) => TYPE_TESTS[t]!(v));
  const string = stringCheck(s, pattern);
  const number = numberCheck(s);
  const constant = s.const;
  return (v, copy) => {
    if (typeOk !== null && !typeOk(v)) return UNSURE;
    if (enumValues !== undefined && !(enumValues as unknown[]).includes(v)) return UNSURE;
    if (hasConst && constant !== v) return UNSURE;
    switch (typeof v) {
      case 'string':
        return string === null || string(v) ? v : UNSURE;
      case 'number':
        return Number.isFinite(v) && (number === null || number(v)) ? v : UNSURE;
      case 'boolean':
        return v;
      case 'object':
        if (v === null) return null;
        if (Array.isArray(v)) return array === null ? UNSURE : array(v, copy);
        if (isPlainObject(v)) return object === null ? UNSURE : object(v, copy);
        return UNSURE;
      default:
        return UNSURE;
    }
  };
}

function stringCheck(s: Schema, pattern: ((s: string) => boolean) | null): ((v: string) => boolean) | null {
  const min = s.minLength as number | undefined;
  const max = s.maxLength as number | undefined;
  if (min === undefined && max === undefined && pattern === null) return null;
  return (v) =>
    (min === undefined || codePointsAtLeast(v, min)) &&
    (max === undefined || v.length <= max) &&
    (pattern === null || pattern(v));
}

function numberCheck(s: Schema): ((v: number) => boolean) | null {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = s as Record<string, number | undefined>;
  if ([minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf].every((b) => b === undefined)) return null;
  return (v) =>
    (minimum === undefined || v >= minimum) &&
    (maximum === undefined || v <= maximum) &&
    (exclusiveMinimum === undefined || v > exclusiveMinimum) &&
    (exclusiveMaximum === undefined || v < exclusiveMaximum) &&
    (multipleOf === undefined || (Number.isSafeInteger(v) && v % multipleOf === 0));
}

function compileArray(s: Schema, depth: number): PlainCheck | undefined {
  if (s.items === undefined) return undefined;
  const item = compilePlain(s.items, depth + 1);
  if (item === undefined) return undefined;
  const min = s.minItems as number | undefined;
  const max = s.maxItems as number | undefined;
  return (v, copy) => {
    const list = v as unknown[];
    if ((min !== undefined && list.length < min) || (max !== undefined && list.length > max)) return UNSURE;
    const out: unknown[] = copy ? [] : list;
    for (let i = 0; i < list.length; i++) {
      if (!(i in list)) return UNSURE;
      const r = item(list[i], copy);
      if (r === UNSURE) return UNSURE;
      if (copy) out.push(r);
    }
    return out;
  };
}

function compileRecord(s: Schema, depth: number): PlainCheck | undefined {
  const names = s.propertyNames;
  const stringNames = isSchema(names) && Object.keys(names).length === 1 && names.type === 'string';
  if (!stringNames || s.properties !== undefined || s.required !== undefined) return undefined;
  const values = isSchema(s.additionalProperties) ? compilePlain(s.additionalProperties, depth + 1) : undefined;
  if (values === undefined) return undefined;
  return (v, copy) => {
    const rec = v as Record<string, unknown>;
    // ajv never sees symbol keys; zod's record refuses them, so a copy is not sure of them.
    if (copy && Object.getOwnPropertySymbols(rec).length > 0) return UNSURE;
    const out: Record<string, unknown> = copy ? {} : rec;
    for (const key in rec) {
      if (!Object.hasOwn(rec, key) || key === '__proto__' || rec[key] === undefined) return UNSURE;
      const r = values(rec[key], copy);
      if (r === UNSURE) return UNSURE;
      if (copy) out[key] = r;
    }
    return out;
  };
}

function compileObject(s: Schema, depth: number): PlainCheck | undefined {
  if (s.propertyNames !== undefined) return compileRecord(s, depth);
  const props = s.properties ?? {};
  if (!isSchema(props)) return undefined;
  // Three parallel lists, read with an index: the checker runs on every call.
  const names: string[] = [];
  const checks: PlainCheck[] = [];
  const fallbacks: unknown[] = [];
  for (const [name, field] of Object.entries(props)) {
    // A name an object inherits would be read from the prototype by both validators.
    if (name in Object.prototype || !isSchema(field)) return undefined;
    const check = compilePlain(field, depth + 1);
    if (check === undefined) return undefined;
    names.push(name);
    checks.push(check);
    fallbacks.push(defaultOf(field));
  }
  const known = new Set(names);
  const required = s.required ?? [];
  if (!Array.isArray(required) || !required.every((n) => typeof n === 'string' && known.has(n))) return undefined;
  const needed = required as string[];
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) return undefined;
  const closed = s.additionalProperties === false;
  return (v, copy) => {
    const obj = v as Record<string, unknown>;
    for (const key in obj) {
      if (!Object.hasOwn(obj, key)) return UNSURE;
      if (!known.has(key)) {
        if (closed) return UNSURE;
        continue;
      }
      if (obj[key] === undefined) return UNSURE;
    }
    for (let i = 0; i < needed.length; i++) if (!Object.hasOwn(obj, needed[i]!)) return UNSURE;
    const out: Record<string, unknown> = copy ? {} : obj;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (Object.hasOwn(obj, name)) {
        const r = checks[i]!(obj[name], copy);
        if (r === UNSURE) return UNSURE;
        if (copy) out[name] = r;
      } else if (copy && fallbacks[i] !== undefined) {
        // A default is used as given: it is not checked against its own schema, as zod does not.
        out[name] = copyJson(fallbacks[i]);
      }
    }
    return out;
  };
}
