/**
 * The argument fast path as generated functions, one check and one copy per schema, as ajv does:
 * a call's arguments go through them on every call, and closures per schema node cost several
 * times more than straight-line code. Only schemas `compilePlain` accepts are generated, so every
 * keyword and value in them has been checked already; property names are written as JSON string
 * literals, numbers as the finite numbers they are, and enums, consts, patterns and defaults are
 * passed in, never written.
 */
import {
  codePointsAtLeast,
  copyJson,
  defaultOf,
  isPlainObject,
  KNOWN,
  nullableBranch,
  patternTest,
  UNSURE,
} from './plain-schema.js';

type Schema = Readonly<Record<string, unknown>>;

/** Generated code larger than this is not compiled (the closures are used instead). */
const MAX_CODE_CHARS = 200_000;

/** The generated forms of one schema. */
export interface GeneratedPlain {
  /** True exactly when the closures of `compilePlain` accept `v` in check mode. */
  readonly check: (v: unknown) => boolean;
  /** What the closures return in copy mode: the copy, or `UNSURE`. */
  readonly copy: (v: unknown) => unknown;
}

const lit = (v: number): string => (Object.is(v, -0) ? '0' : String(v));

/**
 * Generates the check and the copy of a schema `compilePlain` compiled; `undefined` when the code
 * would be too large.
 */
export function generatePlain(schema: Schema): GeneratedPlain | undefined {
  const check = generate(schema, false);
  const copy = generate(schema, true);
  if (check === undefined || copy === undefined) return undefined;
  return { check: check as (v: unknown) => boolean, copy };
}

/**
 * One function: with `copy`, it returns the copy of its argument or `U` (`UNSURE`); without, true
 * or false. Each node's code leaves the node's value (the copy) in the variable named `out`, or
 * returns the failure.
 */
function generate(schema: Schema, copy: boolean): ((v: unknown) => unknown) | undefined {
  const consts: unknown[] = [];
  let n = 0;
  const fail = copy ? 'return U;' : 'return false;';
  const constant = (v: unknown): string => {
    consts.push(v);
    return `c[${consts.length - 1}]`;
  };
  const set = (out: string, value: string): string => (copy ? `${out} = ${value};` : '');

  function node(s: Schema, d: string, out: string): string {
    if (!Object.keys(s).some((k) => KNOWN.has(k))) return `if (${d} === undefined) ${fail} ${set(out, d)}`;
    if (s.anyOf !== undefined) {
      const inner = nullableBranch(s.anyOf) as Schema;
      return `if (${d} === null) { ${set(out, 'null')} } else { ${node(inner, d, out)} }`;
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
      code += `if (!(${tests.join(' || ')})) ${fail}`;
    }
    if (s.enum !== undefined) code += `if (!${constant(s.enum)}.includes(${d})) ${fail}`;
    if (s.const !== undefined) code += `if (${d} !== ${constant(s.const)}) ${fail}`;
    let str = '';
    if (s.minLength !== undefined) str += `if (!A(${d}, ${lit(s.minLength as number)})) ${fail}`;
    if (s.maxLength !== undefined) str += `if (${d}.length > ${lit(s.maxLength as number)}) ${fail}`;
    if (s.pattern !== undefined) str += `if (!${constant(patternTest(s.pattern))}(${d})) ${fail}`;
    let num = `if (!Number.isFinite(${d})) ${fail}`;
    if (s.minimum !== undefined) num += `if (${d} < ${lit(s.minimum as number)}) ${fail}`;
    if (s.maximum !== undefined) num += `if (${d} > ${lit(s.maximum as number)}) ${fail}`;
    if (s.exclusiveMinimum !== undefined) num += `if (${d} <= ${lit(s.exclusiveMinimum as number)}) ${fail}`;
    if (s.exclusiveMaximum !== undefined) num += `if (${d} >= ${lit(s.exclusiveMaximum as number)}) ${fail}`;
    if (s.multipleOf !== undefined)
      num += `if (!(Number.isSafeInteger(${d}) && ${d} % ${lit(s.multipleOf as number)} === 0)) ${fail}`;
    const array = allows('array') ? arrayCode(s, d, out) : fail;
    const object = allows('object') ? objectCode(s, d, out) : fail;
    code += `if (typeof ${d} === "string") { ${str} ${set(out, d)} } else if (typeof ${d} === "number") { ${num} ${set(out, d)} }`;
    code += ` else if (typeof ${d} === "boolean" || ${d} === null) { ${set(out, d)} }`;
    code += ` else if (Array.isArray(${d})) { ${array} } else if (P(${d})) { ${object} } else ${fail}`;
    return code;
  }

  function arrayCode(s: Schema, d: string, out: string): string {
    const i = `i${n}`;
    const v = `v${n}`;
    const e = `e${n}`;
    const a = `a${n++}`;
    let code = '';
    if (s.minItems !== undefined) code += `if (${d}.length < ${lit(s.minItems as number)}) ${fail}`;
    if (s.maxItems !== undefined) code += `if (${d}.length > ${lit(s.maxItems as number)}) ${fail}`;
    if (copy) code += `const ${a} = [];`;
    code += `for (let ${i} = 0; ${i} < ${d}.length; ${i}++) { if (!(${i} in ${d})) ${fail} const ${v} = ${d}[${i}];`;
    code += copy
      ? ` let ${e}; ${node(s.items as Schema, v, e)} ${a}.push(${e}); }`
      : ` ${node(s.items as Schema, v, e)} }`;
    return code + set(out, a);
  }

  function objectCode(s: Schema, d: string, out: string): string {
    const k = `k${n}`;
    const v = `v${n}`;
    const o = `o${n++}`;
    const start = copy ? `const ${o} = {};` : '';
    if (s.propertyNames !== undefined) {
      const values = s.additionalProperties as Schema;
      const e = `e${n++}`;
      // zod's record refuses symbol keys, which ajv never sees: only a copy must be sure of them.
      const symbols = copy ? `if (S(${d}).length > 0) ${fail}` : '';
      let code = `${symbols} ${start} for (const ${k} in ${d}) { if (!H(${d}, ${k}) || ${k} === "__proto__") ${fail}`;
      code += ` const ${v} = ${d}[${k}]; if (${v} === undefined) ${fail}`;
      code += copy ? ` let ${e}; ${node(values, v, e)} ${o}[${k}] = ${e}; }` : ` ${node(values, v, e)} }`;
      return code + set(out, o);
    }
    const props = (s.properties ?? {}) as Readonly<Record<string, Schema>>;
    const keys = Object.keys(props);
    // A few names are compared one by one (as ajv does); more are looked up in a set.
    const known =
      keys.length === 0
        ? 'false'
        : keys.length <= 8
          ? keys.map((key) => `${k} === ${JSON.stringify(key)}`).join(' || ')
          : `${constant(new Set(keys))}.has(${k})`;
    const closed = s.additionalProperties === false;
    let code = `for (const ${k} in ${d}) { if (!H(${d}, ${k})) ${fail} if (!(${known})) { ${closed ? fail : 'continue;'} } if (${d}[${k}] === undefined) ${fail} }`;
    for (const r of (s.required ?? []) as string[]) code += `if (!H(${d}, ${JSON.stringify(r)})) ${fail}`;
    code += start;
    for (const [name, field] of Object.entries(props)) {
      const f = `v${n}`;
      const e = `e${n++}`;
      const key = JSON.stringify(name);
      const fallback = defaultOf(field);
      code += `if (H(${d}, ${key})) { const ${f} = ${d}[${key}];`;
      code += copy ? ` let ${e}; ${node(field, f, e)} ${o}[${key}] = ${e}; }` : ` ${node(field, f, e)} }`;
      // A default is used as given: it is not checked against its own schema, as zod does not.
      if (copy && fallback !== undefined) code += ` else { ${o}[${key}] = J(${constant(fallback)}); }`;
    }
    return code + set(out, o);
  }

  const body = copy ? `let out; ${node(schema, 'v', 'out')} return out;` : `${node(schema, 'v', 'out')} return true;`;
  if (body.length > MAX_CODE_CHARS) return undefined;
  const make = new Function('c', 'U', 'P', 'A', 'H', 'S', 'J', `return function plain(v) { ${body} };`) as (
    ...deps: unknown[]
  ) => (v: unknown) => unknown;
  return make(consts, UNSURE, isPlainObject, codePointsAtLeast, Object.hasOwn, Object.getOwnPropertySymbols, copyJson);
}
