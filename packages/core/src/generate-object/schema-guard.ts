/**
 * Guards for JSON Schemas a model or a caller writes (`generate_object`, a task's
 * `output_schema`, a workflow's generation step): checks of the schema's shape before ajv sees
 * it, and a time bound on each validation. A schema that nests without end, or whose `$ref`s
 * lead back to themselves without descending into the value (`{ "$ref": "#" }`), would overflow
 * the stack; a `pattern` written to backtrack (`^(a+)+$`) on a long string would stall the
 * process. Both are refused with a reason instead.
 */
import { createContext, Script, type Context } from 'node:vm';

/** JSON nesting (objects and arrays) a schema may have: about 100 levels of subschemas. */
export const MAX_SCHEMA_NESTING = 200;

/** How long one validation may take before it is stopped, in milliseconds. */
export const VALIDATION_TIME_LIMIT_MS = 1_000;

type Node = Readonly<Record<string, unknown>>;

/** Keywords whose subschemas apply to the same value (a cycle through them never ends). */
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'] as const;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer `ref` names in this document (`#`, `#/a/b`), normalised; `undefined` for any other reference. */
function localPointer(ref: string): string | undefined {
  if (ref === '#') return '#';
  if (!ref.startsWith('#/')) return undefined;
  try {
    const segments = ref
      .slice(2)
      .split('/')
      .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
    return `#/${segments.map(escapeSegment).join('/')}`;
  } catch {
    return undefined;
  }
}

/** Keywords whose values are data, not subschemas (a `$ref` key inside them is just a key). */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/** Every subschema object by its JSON pointer, or the first nesting problem. */
function nodesOf(schema: unknown): Map<string, Node> | string {
  const nodes = new Map<string, Node>();
  const stack: [unknown, string, number, boolean][] = [[schema, '#', 1, false]];
  while (stack.length > 0) {
    const [value, pointer, depth, data] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_NESTING)
      return `nests deeper than ${MAX_SCHEMA_NESTING} levels (at ${pointer.slice(0, 200)}…)`;
    if (Array.isArray(value)) for (const [i, v] of value.entries()) stack.push([v, `${pointer}/${i}`, depth + 1, data]);
    else {
      if (!data) nodes.set(pointer, value as Node);
      for (const [k, v] of Object.entries(value))
        stack.push([v, `${pointer}/${escapeSegment(k)}`, depth + 1, data || DATA_KEYWORDS.has(k)]);
    }
  }
  return nodes;
}

/** The pointers of the subschemas that `node` (at `pointer`) applies to the same value. */
function sameValueEdges(node: Node, pointer: string): string[] {
  const out: string[] = [];
  if (typeof node.$ref === 'string') {
    const target = localPointer(node.$ref);
    if (target !== undefined) out.push(target);
  }
  for (const k of SAME_VALUE_ONE) if (isNode(node[k])) out.push(`${pointer}/${k}`);
  for (const k of SAME_VALUE_LIST) {
    const list = node[k];
    if (Array.isArray(list)) for (let i = 0; i < list.length; i++) out.push(`${pointer}/${k}/${i}`);
  }
  for (const k of SAME_VALUE_MAP) {
    const map = node[k];
    if (isNode(map))
      for (const [name, sub] of Object.entries(map))
        if (isNode(sub)) out.push(`${pointer}/${k}/${escapeSegment(name)}`);
  }
  return out;
}

/**
 * Why `schema` cannot be validated safely, or `undefined`: nesting past
 * {@link MAX_SCHEMA_NESTING}, or `$ref`s that lead back to where they started without
 * descending into the value (a recursive schema through `properties` or `items` is fine).
 */
export function schemaShapeProblem(schema: unknown): string | undefined {
  const nodes = nodesOf(schema);
  if (typeof nodes === 'string') return nodes;
  // Depth-first search for a cycle among same-value edges (iterative: no recursion to overflow).
  const state = new Map<string, 'open' | 'done'>();
  for (const start of nodes.keys()) {
    if (state.has(start)) continue;
    const stack: { pointer: string; edges: string[] }[] = [
      { pointer: start, edges: sameValueEdges(nodes.get(start)!, start) },
    ];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const next = top.edges.pop();
      if (next === undefined) {
        state.set(top.pointer, 'done');
        stack.pop();
        continue;
      }
      const node = nodes.get(next);
      if (node === undefined) continue; // not in this document: ajv reports it
      const seen = state.get(next);
      if (seen === 'open')
        return `its $ref at ${top.pointer} leads back to ${next} without descending into the value, so validation would never end; recurse only through properties or items`;
      if (seen === 'done') continue;
      state.set(next, 'open');
      stack.push({ pointer: next, edges: sameValueEdges(node, next) });
    }
  }
  return undefined;
}

let context: Context | undefined;
let script: Script | undefined;

/** The validation ran past {@link VALIDATION_TIME_LIMIT_MS} and was stopped. */
export class ValidationTimeout extends Error {}

/**
 * Runs `fn` and returns its result, stopping it after `limitMs` (a backtracking regular
 * expression cannot be interrupted any other way).
 * @throws ValidationTimeout when stopped.
 */
export function runBounded<T>(fn: () => T, limitMs: number = VALIDATION_TIME_LIMIT_MS): T {
  context ??= createContext(Object.create(null) as object);
  script ??= new Script('run()');
  const ctx = context as { run?: () => T };
  const previous = ctx.run;
  ctx.run = fn;
  try {
    return script.runInContext(context, { timeout: limitMs }) as T;
  } catch (e) {
    if ((e as { code?: unknown })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new ValidationTimeout();
    throw e;
  } finally {
    ctx.run = previous;
  }
}
