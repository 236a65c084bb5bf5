/**
 * A fast path for tool arguments that needs neither ajv nor zod: a check of the few JSON Schema
 * keywords plain tool schemas use (compiled once per schema, `plain-schema.ts`), and the copy a
 * plain zod schema would make of valid arguments (known fields only, defaults filled in). It
 * answers only when it is sure: the value it accepts is accepted by ajv and by zod alike, and
 * anything else (an unknown keyword, a failure, a value JSON cannot carry) is {@link UNSURE}, for
 * the full validator to judge and explain.
 */
import type { JsonSchema } from './json-schema.js';
import { generatePlain } from './plain-codegen.js';
import { compilePlain, isPlainObject, type PlainCheck, UNSURE } from './plain-schema.js';

export { isJsonValue, UNSURE } from './plain-schema.js';

/** A schema's compiled forms: the closures, and the generated check and copy the calls use. */
interface Compiled {
  readonly walk: PlainCheck;
  readonly check: (v: unknown) => boolean;
  readonly copy: (v: unknown) => unknown;
}

/** The compiled forms of each schema object (`null`: outside the subset, always ajv). */
const compiled = new WeakMap<object, Compiled | null>();

function compiledOf(schema: JsonSchema): Compiled | null {
  let c = compiled.get(schema);
  if (c === undefined) {
    const walk = compilePlain(schema);
    const generated = walk === undefined ? undefined : generatePlain(schema);
    c =
      walk === undefined
        ? null
        : {
            walk,
            check: generated?.check ?? ((v: unknown) => walk(v, false) !== UNSURE),
            copy: generated?.copy ?? ((v: unknown) => walk(v, true)),
          };
    compiled.set(schema, c);
  }
  return c;
}

/**
 * `true` when `args` surely satisfy `schema` (ajv would accept them); `false` when the fast path
 * cannot tell (then the full validator decides).
 */
export function surelyValidArgs(schema: JsonSchema, args: unknown): boolean {
  const c = compiledOf(schema);
  return c?.check(args) === true;
}

/** Test support: the closures' verdict in check mode, beside the generated one {@link surelyValidArgs} uses. */
export function walkedValidArgs(schema: JsonSchema, args: unknown): boolean {
  const c = compiledOf(schema);
  return c !== null && c.walk(args, false) !== UNSURE;
}

/** Test support: the closures' copy, beside the generated one {@link parsePlainArgs} uses. */
export function walkedPlainArgs(schema: JsonSchema, args: unknown): unknown {
  const c = compiledOf(schema);
  return c === null || !isPlainObject(args) ? UNSURE : c.walk(args, true);
}

/**
 * The arguments a plain zod schema would parse `args` into, read from its JSON Schema (the
 * `io: 'input'` one zod derives): a fresh copy with only the known fields, defaults filled in.
 * {@link UNSURE} when the fast path cannot tell (then zod parses, and explains any error).
 */
export function parsePlainArgs(schema: JsonSchema, args: unknown): Record<string, unknown> | typeof UNSURE {
  const c = compiledOf(schema);
  if (c === null || !isPlainObject(args)) return UNSURE;
  const out = c.copy(args);
  return out === UNSURE ? UNSURE : (out as Record<string, unknown>);
}
