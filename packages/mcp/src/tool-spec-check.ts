/**
 * Checks the tools a server lists before they reach a surface. A server is untrusted: a tool whose
 * name a surface cannot hold, a second tool of the same name, a description or input schema too
 * large to send to a model on every turn, an input schema that is not JSON Schema, or one whose
 * validation could run away (branches that multiply: `schemaCostProblem`) is left out, and the
 * reason is reported (naming the server and the tool) instead of failing the server.
 */
import { schemaCostProblem } from '@a3s-code/core';
import type { Tool as McpToolSpec } from '@modelcontextprotocol/sdk/types.js';

/** What a tool name may be (the MCP specification's recommendation): 1..128 of `[A-Za-z0-9_.-]`. */
export const MCP_TOOL_NAME_RULE = '1..128 of [A-Za-z0-9_.-]';

const TOOL_NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** Largest input schema of one tool, as JSON text. */
export const MAX_INPUT_SCHEMA_BYTES = 64 * 1024;

/** Largest description of one tool. */
export const MAX_DESCRIPTION_CHARS = 16 * 1024;

/** Deepest nesting of an input schema. */
const MAX_SCHEMA_DEPTH = 64;

/** Longest schema problem a reason quotes (a deep path keeps its end). */
const MAX_REASON_CHARS = 300;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A tool left out of the surface, and why. */
export interface McpRejectedTool {
  /** The name the server gave (shortened to 200 characters). */
  readonly tool: string;
  /** Why it was left out. */
  readonly reason: string;
}

/**
 * Splits `specs` into the tools that may reach a surface and those left out (with the reason).
 * `surfaceName` maps a tool name to its name on a surface; two tools that map to one surface name
 * (a long name is shortened with a hash, which another name can spell out) keep the first.
 */
export function checkToolSpecs(
  specs: readonly McpToolSpec[],
  surfaceName: (tool: string) => string = (tool) => tool,
): {
  readonly accepted: McpToolSpec[];
  readonly rejected: McpRejectedTool[];
} {
  const accepted: McpToolSpec[] = [];
  const rejected: McpRejectedTool[] = [];
  const seen = new Set<string>();
  const surfaces = new Set<string>();
  for (const spec of specs) {
    const name = typeof spec.name === 'string' ? spec.name : String(spec.name);
    let problem = specProblem(spec, seen);
    if (problem === undefined && surfaces.has(surfaceName(name)))
      problem = `its surface name '${surfaceName(name)}' is that of an earlier tool (the first one is kept)`;
    if (problem === undefined) {
      seen.add(name);
      surfaces.add(surfaceName(name));
      accepted.push(spec);
    } else rejected.push({ tool: name.length > 200 ? `${name.slice(0, 200)}…` : name, reason: problem });
  }
  return { accepted, rejected };
}

function specProblem(spec: McpToolSpec, seen: ReadonlySet<string>): string | undefined {
  if (typeof spec.name !== 'string' || !TOOL_NAME_RE.test(spec.name))
    return `its name (${String(spec.name).length} characters) is not ${MCP_TOOL_NAME_RULE}`;
  if (seen.has(spec.name)) return 'a second tool of the same name (the first one is kept)';
  const description = spec.description ?? '';
  if (description.length > MAX_DESCRIPTION_CHARS)
    return `its description has ${description.length} characters; the most is ${MAX_DESCRIPTION_CHARS}`;
  const text = JSON.stringify(spec.inputSchema);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_INPUT_SCHEMA_BYTES)
    return `its inputSchema is ${bytes} bytes of JSON; the most is ${MAX_INPUT_SCHEMA_BYTES}`;
  const bad = schemaProblem(spec.inputSchema, spec.inputSchema, 'inputSchema', 0);
  if (bad !== undefined) return bad.length > MAX_REASON_CHARS ? `its …${bad.slice(-MAX_REASON_CHARS)}` : `its ${bad}`;
  const costly = schemaCostProblem(spec.inputSchema);
  return costly === undefined ? undefined : `its inputSchema ${costly}`;
}

/** True for a plain object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keywords whose value is a map of names to schemas. */
export const MAP_KEYWORDS = ['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'] as const;
/** Keywords whose value is one schema (`items` may be a list too). */
const ONE_KEYWORDS = [
  'items',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contentSchema',
  'not',
  'if',
  'then',
  'else',
  'contains',
] as const;
/** Keywords whose value is a non-empty list of schemas. */
const LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/**
 * Keywords a server's schema may not use: identifiers and dynamic references change how
 * references resolve (and clash between tools validated together), and the names that
 * `patternProperties` matches come from the model, so a server's regular expression would run on
 * them.
 */
const NOT_ALLOWED_KEYWORDS = [
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  'patternProperties',
] as const;
const NOT_ALLOWED_WHY = `allowed: '$ref' to '#/...', properties and additionalProperties (not ${NOT_ALLOWED_KEYWORDS.join(', ')})`;

/**
 * The subschemas of a schema node, as `[kind, subschema, path]`; a subschema of the wrong form
 * is `undefined`. A `dependencies` entry that is a list of names is not a schema and is skipped.
 */
function* subschemas(
  node: Readonly<Record<string, unknown>>,
  path: string,
): Generator<readonly ['map' | 'one' | 'list', unknown, string]> {
  for (const key of MAP_KEYWORDS) {
    const map = node[key];
    if (map === undefined) continue;
    if (!isRecord(map)) {
      yield ['map', undefined, `${path}.${key}`];
      continue;
    }
    for (const [k, sub] of Object.entries(map))
      if (!(key === 'dependencies' && Array.isArray(sub))) yield ['map', sub, `${path}.${key}.${k}`];
  }
  for (const key of ONE_KEYWORDS) {
    const sub = node[key];
    if (sub === undefined) continue;
    if (key === 'items' && Array.isArray(sub))
      for (const [i, s] of sub.entries()) yield ['one', s, `${path}.items[${i}]`];
    else yield ['one', sub, `${path}.${key}`];
  }
  for (const key of LIST_KEYWORDS) {
    const list = node[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) yield ['list', undefined, `${path}.${key}`];
    else for (const [i, s] of list.entries()) yield ['list', s, `${path}.${key}[${i}]`];
  }
}

/** The first thing in `node` that is not JSON Schema (as `path: problem`), or `undefined`. */
function schemaProblem(node: unknown, root: unknown, path: string, depth: number): string | undefined {
  if (typeof node === 'boolean') return undefined;
  if (!isRecord(node)) return `${path} is not a schema (an object or a boolean)`;
  if (depth > MAX_SCHEMA_DEPTH) return `${path} is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  const type = node.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t)))
      return `${path}.type is ${JSON.stringify(type)}; allowed: ${[...JSON_TYPES].join(', ')} (or an array of them)`;
  }
  if (
    node.required !== undefined &&
    !(Array.isArray(node.required) && node.required.every((r) => typeof r === 'string'))
  )
    return `${path}.required is not an array of property names`;
  if (node.$ref !== undefined) {
    const problem = refProblem(node.$ref, root);
    if (problem !== undefined) return `${path}.$ref ${problem}`;
  }
  for (const key of NOT_ALLOWED_KEYWORDS) {
    if (node[key] !== undefined) return `${path} uses ${key}; ${NOT_ALLOWED_WHY}`;
  }
  if (node.pattern !== undefined && typeof node.pattern !== 'string') return `${path}.pattern is not a string`;
  for (const [key, sub, at] of subschemas(node, path)) {
    if (sub === undefined) return `${at} is not ${key === 'list' ? 'a non-empty array of schemas' : 'an object'}`;
    const bad = schemaProblem(sub, root, at, depth + 1);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** Why a `$ref` cannot be followed: only references inside the schema (`#`, `#/...`) that exist. */
function refProblem(ref: unknown, root: unknown, seen: ReadonlySet<string> = new Set()): string | undefined {
  if (typeof ref !== 'string') return 'is not a string';
  if (ref !== '#' && !ref.startsWith('#/'))
    return `${JSON.stringify(ref.slice(0, 100))} points outside the schema; allowed: '#/...'`;
  let at: unknown = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return `${JSON.stringify(ref.slice(0, 100))} is not a valid JSON pointer`;
    }
    if (!isRecord(at) || !Object.hasOwn(at, seg)) return `${JSON.stringify(ref.slice(0, 100))} points to nothing`;
    at = at[seg];
  }
  // A schema that is only a reference to another such schema, round to the first, is no schema.
  if (isRecord(at) && typeof at.$ref === 'string') {
    const next = at.$ref;
    if (seen.has(next))
      return `${JSON.stringify(ref.slice(0, 100))} is a cycle of references that never reaches a schema`;
    return refProblem(next, root, new Set([...seen, ref]));
  }
  return undefined;
}
