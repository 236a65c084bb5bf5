/**
 * Checks the tools a server lists before they reach a surface. A server is untrusted: a tool whose
 * name a surface cannot hold, a second tool of the same name, a description or input schema too
 * large to send to a model on every turn, or an input schema that is not JSON Schema is left out,
 * and the reason is reported (naming the server and the tool) instead of failing the server.
 */
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

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A tool left out of the surface, and why. */
export interface McpRejectedTool {
  /** The name the server gave (shortened to 200 characters). */
  readonly tool: string;
  /** Why it was left out. */
  readonly reason: string;
}

/** Splits `specs` into the tools that may reach a surface and those left out (with the reason). */
export function checkToolSpecs(specs: readonly McpToolSpec[]): {
  readonly accepted: McpToolSpec[];
  readonly rejected: McpRejectedTool[];
} {
  const accepted: McpToolSpec[] = [];
  const rejected: McpRejectedTool[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    const name = typeof spec.name === 'string' ? spec.name : String(spec.name);
    const problem = specProblem(spec, seen);
    if (problem === undefined) {
      seen.add(name);
      accepted.push(spec);
    } else rejected.push({ tool: name.length > 200 ? `${name.slice(0, 200)}…` : name, reason: problem });
  }
  return { accepted, rejected };
}

function specProblem(spec: McpToolSpec, seen: ReadonlySet<string>): string | undefined {
  if (!TOOL_NAME_RE.test(spec.name)) return `its name (${spec.name.length} characters) is not ${MCP_TOOL_NAME_RULE}`;
  if (seen.has(spec.name)) return 'a second tool of the same name (the first one is kept)';
  const description = spec.description ?? '';
  if (description.length > MAX_DESCRIPTION_CHARS)
    return `its description has ${description.length} characters; the most is ${MAX_DESCRIPTION_CHARS}`;
  const text = JSON.stringify(spec.inputSchema);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_INPUT_SCHEMA_BYTES)
    return `its inputSchema is ${bytes} bytes of JSON; the most is ${MAX_INPUT_SCHEMA_BYTES}`;
  const bad = schemaProblem(spec.inputSchema, spec.inputSchema, 'inputSchema', 0);
  return bad === undefined ? undefined : `its ${bad}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'] as const) {
    const map = node[key];
    if (map === undefined) continue;
    if (!isRecord(map)) return `${path}.${key} is not an object`;
    for (const [k, sub] of Object.entries(map)) {
      const bad = schemaProblem(sub, root, `${path}.${key}.${k}`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const) {
    const sub = node[key];
    if (sub === undefined) continue;
    const subs = key === 'items' && Array.isArray(sub) ? sub : [sub];
    for (const [i, s] of subs.entries()) {
      const bad = schemaProblem(s, root, Array.isArray(sub) ? `${path}.${key}[${i}]` : `${path}.${key}`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const) {
    const list = node[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) return `${path}.${key} is not a non-empty array of schemas`;
    for (const [i, s] of list.entries()) {
      const bad = schemaProblem(s, root, `${path}.${key}[${i}]`, depth + 1);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}

/** Why a `$ref` cannot be followed: only references inside the schema (`#`, `#/...`) that exist. */
function refProblem(ref: unknown, root: unknown): string | undefined {
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
  return undefined;
}
