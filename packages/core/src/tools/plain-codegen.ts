/**
 * The check of the argument fast path as one generated function per schema, as ajv does: a call's
 * arguments are checked on every call, and closures per schema node cost several times more than
 * straight-line code. Only schemas `compilePlain` accepts are generated, so every keyword and value
 * in them has been checked already; property names are written as JSON string literals, numbers
 * as the finite numbers they are, and enums, consts and patterns are passed in, never written.
 */
import { codePointsAtLeast, isPlainObject, KNOWN, patternTest } from './plain-schema.js';

type Schema = Readonly<Record<string, unknown>>;

/** Generated code larger than this is not compiled (the closures are used instead). */
const MAX_CODE_CHARS = 200_000;

const isNullSchema = (s: unknown): boolean =>
  typeof s === 'object' && s !== null && Object.keys(s).length === 1 && (s as Schema).type === 'null';

/**
 * A generated `(v) => boolean` that is true exactly when the closures of `compilePlain(schema)`
 * accept `v` in check mode; call it only for a schema `compilePlain` compiled.
 */
export function generatePlainCheck(schema: Schema): ((v: unknown) => boolean) | undefined {
  const consts: unknown[] = [];
  let n = 0;
  const constant = (v: unknown): string => {
    consts.push(v);
    return `c[${consts.length - 1}]`;
  };
  const lit = (v: number): string => (Object.is(v, -0) ? '0' : String(v));

  function node(s: Schema, d: string): string {
    if (!Object.keys(s).some((k) => KNOWN.has(k))) return `if (${d} === undefined) return false;`;
    if (s.anyOf !== undefined) {
      const [a, b] = s.anyOf as Schema[];
      const inner = isNullSchema(b) ? a! : b!;
      return `if (${d} !== null) { ${node(inner, d)} }`;
    }
    const types = s.type === undefined ? undefined : typeof s.type === 'string' ? [s.type] : (s.type as string[]);
    const allows = (t: string): boolean => types?.includes(t) === true;
    let code = '';
    if (types !== undefined) {
      const tests = types.map((t) => {
        switch (t) {
          case 'string':
            return `typeof ${d} === "string"`;
          case 'number':
            return `(typeof ${d} === "number" && Number.isFinite(${d}))`;
          case 'integer':
            return `Number.isSafeInteger(${d})`;
          case 'boolean':
            return `typeof ${d} === "boolean"`;
          case 'null':
            return `${d} === null`;
          case 'object':
            return `P(${d})`;
          default:
            return `Array.isArray(${d})`;
        }
      });
      code += `if (!(${tests.join(' || ')})) return false;`;
    }
    if (s.enum !== undefined) code += `if (!${constant(s.enum)}.includes(${d})) return false;`;
    if (s.const !== undefined) code += `if (${d} !== ${constant(s.const)}) return false;`;
    let str = '';
    if (s.minLength !== undefined) str += `if (!A(${d}, ${lit(s.minLength as number)})) return false;`;
    if (s.maxLength !== undefined) str += `if (${d}.length > ${lit(s.maxLength as number)}) return false;`;
    if (s.pattern !== undefined) str += `if (!${constant(patternTest(s.pattern))}(${d})) return false;`;
    let num = `if (!Number.isFinite(${d})) return false;`;
    if (s.minimum !== undefined) num += `if (${d} < ${lit(s.minimum as number)}) return false;`;
    if (s.maximum !== undefined) num += `if (${d} > ${lit(s.maximum as number)}) return false;`;
    if (s.exclusiveMinimum !== undefined) num += `if (${d} <= ${lit(s.exclusiveMinimum as number)}) return false;`;
    if (s.exclusiveMaximum !== undefined) num += `if (${d} >= ${lit(s.exclusiveMaximum as number)}) return false;`;
    if (s.multipleOf !== undefined)
      num += `if (!(Number.isSafeInteger(${d}) && ${d} % ${lit(s.multipleOf as number)} === 0)) return false;`;
    const array = allows('array') ? arrayCode(s, d) : 'return false;';
    const object = allows('object') ? objectCode(s, d) : 'return false;';
    code += `if (typeof ${d} === "string") { ${str} } else if (typeof ${d} === "number") { ${num} }`;
    code += ` else if (typeof ${d} === "boolean" || ${d} === null) {}`;
    code += ` else if (Array.isArray(${d})) { ${array} } else if (P(${d})) { ${object} } else return false;`;
    return code;
  }

  function arrayCode(s: Schema, d: string): string {
    const i = `i${n}`;
    const v = `v${n++}`;
    let code = '';
    if (s.minItems !== undefined) code += `if (${d}.length < ${lit(s.minItems as number)}) return false;`;
    if (s.maxItems !== undefined) code += `if (${d}.length > ${lit(s.maxItems as number)}) return false;`;
    return `${code} for (let ${i} = 0; ${i} < ${d}.length; ${i}++) { if (!(${i} in ${d})) return false; const ${v} = ${d}[${i}]; ${node(s.items as Schema, v)} }`;
  }

  function objectCode(s: Schema, d: string): string {
    const k = `k${n}`;
    const v = `v${n++}`;
    if (s.propertyNames !== undefined) {
      const values = s.additionalProperties as Schema;
      return `for (const ${k} in ${d}) { if (!H(${d}, ${k}) || ${k} === "__proto__") return false; const ${v} = ${d}[${k}]; if (${v} === undefined) return false; ${node(values, v)} }`;
    }
    const props = (s.properties ?? {}) as Readonly<Record<string, Schema>>;
    const names = constant(new Set(Object.keys(props)));
    const closed = s.additionalProperties === false;
    let code = `for (const ${k} in ${d}) { if (!H(${d}, ${k})) return false; if (!${names}.has(${k})) { ${closed ? 'return false;' : 'continue;'} } if (${d}[${k}] === undefined) return false; }`;
    for (const r of (s.required ?? []) as string[]) code += `if (!H(${d}, ${JSON.stringify(r)})) return false;`;
    for (const [name, field] of Object.entries(props)) {
      const f = `v${n++}`;
      const key = JSON.stringify(name);
      code += `if (H(${d}, ${key})) { const ${f} = ${d}[${key}]; ${node(field, f)} }`;
    }
    return code;
  }

  const body = `${node(schema, 'v')} return true;`;
  if (body.length > MAX_CODE_CHARS) return undefined;
  const make = new Function('c', 'P', 'A', 'H', `return function check(v) { ${body} };`) as (
    c: unknown[],
    p: (v: unknown) => boolean,
    a: (s: string, min: number) => boolean,
    h: (o: object, k: PropertyKey) => boolean,
  ) => (v: unknown) => boolean;
  return make(consts, isPlainObject, codePointsAtLeast, Object.hasOwn);
}
