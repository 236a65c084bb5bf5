/**
 * Whether validating a value against a schema costs no more than its static bound
 * (`schema-cost.ts`: values times checks per value), so it may run on the host thread without the
 * time bound. That holds only when each keyword of each subschema the validator applies costs a
 * step or so per value: types, properties, lengths, counts, ranges, scalar enums, and the
 * applicators the cost bound already counts. A keyword whose own cost is not one step is not:
 * `pattern` (a regular expression may backtrack), `format` (a regular expression too),
 * `uniqueItems` (quadratic in the items), `contains` and the unevaluated keywords (they look at
 * every item or property again), `patternProperties`, an `enum` or `const` of objects or arrays
 * (deep equality), and any keyword this list does not know.
 */
import { schemaGraph } from './schema-graph.js';

/** Keywords whose check of one value is a step, or whose cost the static bound already counts. */
const LINEAR_KEYWORDS = new Set([
  // structure and applicators (their subschemas are nodes of the graph, each checked too)
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'prefixItems',
  'additionalItems',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$defs',
  'definitions',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  // sizes and ranges
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  // annotations (never checked)
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'readOnly',
  'writeOnly',
  'deprecated',
  '$schema',
  '$id',
]);

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/** Why one keyword of a subschema is not linear, or `undefined` when it is. */
function keywordProblem(key: string, value: unknown): string | undefined {
  if (key === 'enum') return Array.isArray(value) && value.every(isScalar) ? undefined : 'an enum of objects or arrays';
  if (key === 'const') return isScalar(value) ? undefined : 'a const object or array';
  if (key === 'uniqueItems') return value === false ? undefined : 'uniqueItems';
  return LINEAR_KEYWORDS.has(key) ? undefined : key;
}

/**
 * `undefined` when every subschema `schema` applies uses only keywords whose check of a value is
 * a step (so validation costs at most its static bound), otherwise the first keyword that is not
 * and where (`"pattern at #/properties/a"`). A schema whose graph cannot be built is not linear.
 */
export function nonLinearKeyword(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  const g = schemaGraph(schema);
  if (typeof g === 'string') return g;
  for (const [i, node] of g.nodes.entries())
    for (const [key, value] of Object.entries(node)) {
      const problem = keywordProblem(key, value);
      if (problem !== undefined) return `${problem} at ${g.where[i]}`;
    }
  return undefined;
}
