/**
 * Test support: fast-check values for a JSON Schema, mostly valid and often at the edges (lengths
 * at the bounds, astral characters, integers beside the limits, missing and extra keys), with a
 * share of values of the wrong kind (floats for integers, `NaN`, `Infinity`, nested junk).
 */
import fc from 'fast-check';

type Schema = Readonly<Record<string, unknown>>;

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 60),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('😀', '😀😀', '', 'constructor'),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'constructor', '__proto__'), fc.integer(), { maxKeys: 2 }),
);

const chars = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', ' ', '.', '/') },
  { weight: 1, arbitrary: fc.constantFrom('😀', 'é', '\u0000', '\ud800') },
);

function stringOf(s: Schema, noisy: boolean): fc.Arbitrary<unknown> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : min + 6;
  const text = (lo: number, hi: number) =>
    fc.array(chars, { minLength: lo, maxLength: Math.max(lo, hi) }).map((a) => a.join(''));
  if (!noisy) return text(min, Math.min(max, min + 12));
  return fc.oneof(
    { weight: 6, arbitrary: text(min, Math.min(max, min + 12)) },
    { weight: 1, arbitrary: text(Math.max(0, min - 1), Math.max(0, min - 1)) },
    // Just over the bound (astral characters count twice for zod, once for ajv); cheap for long bounds.
    {
      weight: 1,
      arbitrary: fc.constantFrom(`${'a'.repeat(max)}`, `${'a'.repeat(max + 1)}`, `${'😀'.repeat(Math.ceil(max / 2))}`),
    },
  );
}

function numberOf(s: Schema, integer: boolean, noisy: boolean): fc.Arbitrary<unknown> {
  const lo = [s.minimum, s.exclusiveMinimum].find((v): v is number => typeof v === 'number') ?? -50;
  const hi = [s.maximum, s.exclusiveMaximum].find((v): v is number => typeof v === 'number') ?? 50;
  const near = (v: number) => (noisy ? fc.constantFrom(v - 1, v, v + 1, v + 0.5) : fc.constant(v));
  const base = fc.oneof(
    near(lo),
    near(hi),
    fc.integer({
      min: Math.max(Number.MIN_SAFE_INTEGER, Math.ceil(lo)),
      max: Math.min(Number.MAX_SAFE_INTEGER, Math.floor(Math.max(lo, Math.min(hi, lo + 1000)))),
    }),
  );
  const inside = s.exclusiveMinimum === undefined && s.exclusiveMaximum === undefined;
  const double = fc.double({ min: lo, max: Math.max(lo, hi), noNaN: true });
  return integer || !(noisy || inside) ? base : fc.oneof(base, double);
}

function typed(s: Schema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as Schema[]).map((b) => node(b, depth + 1, noisy));
    return fc.oneof(...branches);
  }
  if (Array.isArray(s.enum))
    return noisy ? fc.constantFrom(...(s.enum as unknown[]), 'not-in-enum') : fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return noisy ? fc.constantFrom(s.const, 'not-the-const') : fc.constant(s.const);
  switch (s.type) {
    case 'string':
      return stringOf(s, noisy);
    case 'integer':
      return numberOf(s, true, noisy);
    case 'number':
      return numberOf(s, false, noisy);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? s.maxItems : min + 3;
      const items = s.items === undefined ? junk : node(s.items as Schema, depth + 1, noisy);
      const list = (lo: number, hi: number) => fc.array(items, { minLength: lo, maxLength: Math.max(lo, hi) });
      if (!noisy) return list(min, Math.min(max, min + 3));
      return fc.oneof(
        { weight: 6, arbitrary: list(min, Math.min(max, min + 3)) },
        { weight: 1, arbitrary: list(Math.max(0, min - 1), Math.max(0, min - 1)) },
        { weight: 1, arbitrary: list(max, max + 1) },
      );
    }
    case 'object':
      return objectOf(s, depth, noisy);
    default:
      return junk;
  }
}

function objectOf(s: Schema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (s.propertyNames !== undefined && typeof s.additionalProperties === 'object') {
    const keys = noisy
      ? fc.constantFrom('a', 'b', '10', '2', 'constructor', '__proto__')
      : fc.constantFrom('a', 'b', '10', '2');
    return fc.dictionary(keys, node(s.additionalProperties as Schema, depth + 1, noisy), { maxKeys: 4 });
  }
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = (s.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = node(v, depth + 1, noisy);
  const record = (keys: string[]) => fc.record(model, { requiredKeys: keys });
  const extra = fc.oneof(
    { weight: 7, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('extra', 'constructor', '__proto__'), junk) },
  );
  if (!noisy) return record(required);
  return fc
    .tuple(fc.oneof({ weight: 9, arbitrary: record(required) }, { weight: 1, arbitrary: record([]) }), extra)
    .map(([o, e]) => {
      const out = { ...(o as Record<string, unknown>) };
      if (e !== null)
        Object.defineProperty(out, e[0], { value: e[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
}

function node(schema: Schema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (depth > 6) return junk;
  if (!noisy) return typed(schema, depth, false);
  return fc.oneof({ weight: 9, arbitrary: typed(schema, depth, true) }, { weight: 1, arbitrary: junk });
}

/**
 * Values for `schema`: half of them kept within its bounds (mostly valid), half noisy (edges, and
 * about one node in ten of the wrong kind).
 */
export function valuesOf(schema: Schema): fc.Arbitrary<unknown> {
  return fc.oneof(node(schema, 0, false), node(schema, 0, true));
}
