/**
 * A JSON Schema as a graph of the subschemas a validator applies, for the cost check of
 * `schema-cost.ts`. Only subschemas reachable from the root (through applicator keywords and
 * `$ref`s) are nodes: a `$defs` entry nothing refers to is never applied. Edges are of two kinds:
 * those that apply a subschema to the same value, and those that apply one to a child of it
 * (named by property name or item position, or to all of them). Where the validator's choice
 * depends on data (`if`, `then`, `else`), every edge is kept, so the count is a worst case.
 */

/**
 * Which children of a value an edge applies to: the property `name`, every property but
 * `except`, the item at `index`, every item from `from` on, or the property names themselves.
 */
export type ChildKind =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'properties'; readonly except: ReadonlySet<string> }
  | { readonly kind: 'position'; readonly index: number }
  | { readonly kind: 'items'; readonly from: number }
  | { readonly kind: 'names' };

/** An edge to the subschema `to`, applied to children of the value. */
export type ChildEdge = ChildKind & { readonly to: number };

/** The subschemas of a schema (index 0 is the root) and their edges. */
export interface Graph {
  /** Each subschema object. */
  readonly nodes: readonly object[];
  /** The JSON pointer where each was first found. */
  readonly where: readonly string[];
  /** The subschemas each applies to the same value (one entry per route). */
  readonly inPlace: readonly (readonly number[])[];
  /** The subschemas each applies to children of the value. */
  readonly children: readonly (readonly ChildEdge[])[];
}

type Node = Readonly<Record<string, unknown>>;

const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'] as const;
const ALL_ITEMS = ['contains', 'unevaluatedItems'] as const;
/** Keywords whose references this check cannot follow (they resolve by where the validation came from). */
const DYNAMIC_REFS = ['$dynamicRef', '$recursiveRef'] as const;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function quote(ref: string): string {
  return JSON.stringify(ref.length > 100 ? `${ref.slice(0, 100)}…` : ref);
}

/** Keywords whose value is a map of names to subschemas. */
const SCHEMA_MAPS = new Set([
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is one subschema (`items` may be a list of them too). */
const SCHEMA_ONES = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contentSchema',
  'contains',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Where the walk of a pointer is: at a schema, in a map of schemas, in a list of schemas. */
type Place = 'schema' | 'map' | 'list';

/**
 * Where one more pointer segment `seg` leads from `place` (whose value is `value`), or `undefined`
 * when it leaves the places a schema may be (data such as `default`, `examples`, `const` or `enum`,
 * and keywords a validator ignores).
 */
function nextPlace(place: Place, value: unknown, seg: string): Place | undefined {
  if (place === 'map') return 'schema';
  if (place === 'list') return /^(0|[1-9]\d*)$/.test(seg) ? 'schema' : undefined;
  if (Array.isArray(value)) return undefined;
  if (SCHEMA_MAPS.has(seg)) return 'map';
  if (SCHEMA_LISTS.has(seg)) return 'list';
  if (seg === 'items' && Array.isArray((value as Record<string, unknown>).items)) return 'list';
  return SCHEMA_ONES.has(seg) ? 'schema' : undefined;
}

/** What a `$ref` may point at, for a reason. */
const REF_TARGETS =
  "allowed: '#', or a subschema under $defs, definitions, properties, items, prefixItems, additionalProperties, anyOf, oneOf, allOf, not, if, then, else and the like";

/** The value `ref` points to in `root` with its normalised pointer, or why it cannot be followed. */
function resolve(root: Node, ref: string): { readonly value: unknown; readonly pointer: string } | string {
  let fragment = ref;
  const id = typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : undefined;
  if (id !== undefined && id !== '' && ref.startsWith(id)) fragment = ref.slice(id.length);
  if (fragment === '' || fragment === '#') return { value: root, pointer: '#' };
  if (!fragment.startsWith('#/'))
    return `has a $ref ${quote(ref)} that does not point inside the schema; allowed: '#' or '#/...'`;
  let at: unknown = root;
  let place: Place | undefined = 'schema';
  const segments: string[] = [];
  for (const raw of fragment.slice(2).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return `has a $ref ${quote(ref)} that is not a valid JSON pointer`;
    }
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, seg))
      return `has a $ref ${quote(ref)} that points to nothing in the schema`;
    // Data (a default, an example, a constant) and keywords a validator ignores never become a
    // schema by being referred to: a reference may only name a place a subschema is.
    place = place === undefined ? undefined : nextPlace(place, at, seg);
    at = (at as Record<string, unknown>)[seg];
    segments.push(escapeSegment(seg));
  }
  if (place !== 'schema')
    return `has a $ref ${quote(ref)} that does not point at a subschema (it points into data or a keyword that holds no schema); ${REF_TARGETS}`;
  return { value: at, pointer: `#/${segments.join('/')}` };
}

/**
 * The graph of `schema`, or why it cannot be built: a `$ref` that does not point at a subschema
 * inside the schema (one into `default`, `examples`, `const`, `enum` or an unknown keyword would
 * make data a schema), a dynamic reference, or an `$id` below the root (it would move where `$ref`s point).
 * Iterative, so a deeply nested schema cannot overflow the stack.
 */
export function schemaGraph(schema: unknown): Graph | string {
  const nodes: object[] = [];
  const where: string[] = [];
  const inPlace: number[][] = [];
  const children: ChildEdge[][] = [];
  if (!isNode(schema)) return { nodes, where, inPlace, children };
  const index = new Map<object, number>();
  const work: number[] = [];
  /** The index of subschema `value` (found at `pointer`), or -1 when it is not an object schema. */
  const nodeOf = (value: unknown, pointer: string): number => {
    if (!isNode(value)) return -1; // a boolean schema applies nothing further
    let i = index.get(value);
    if (i === undefined) {
      i = nodes.length;
      index.set(value, i);
      nodes.push(value);
      where.push(pointer);
      inPlace.push([]);
      children.push([]);
      work.push(i);
    }
    return i;
  };
  nodeOf(schema, '#');
  while (work.length > 0) {
    const i = work.pop()!;
    const node = nodes[i] as Node;
    const at = where[i]!;
    const same = (value: unknown, pointer: string): void => {
      const to = nodeOf(value, pointer);
      if (to >= 0) inPlace[i]!.push(to);
    };
    const child = (value: unknown, pointer: string, kind: ChildKind): void => {
      const to = nodeOf(value, pointer);
      if (to >= 0) children[i]!.push({ ...kind, to });
    };
    for (const k of DYNAMIC_REFS) if (node[k] !== undefined) return `uses ${k} at ${at}; allowed: '$ref' to '#/...'`;
    if (i !== 0 && node.$id !== undefined)
      return `sets $id at ${at}, which would change where its $refs point; only the root may have one`;
    if (typeof node.$ref === 'string') {
      const target = resolve(schema, node.$ref);
      if (typeof target === 'string') return `${target} (at ${at})`;
      same(target.value, target.pointer);
    }
    for (const k of SAME_VALUE_ONE) same(node[k], `${at}/${k}`);
    for (const k of SAME_VALUE_LIST) {
      const list = node[k];
      if (Array.isArray(list)) for (const [n, sub] of list.entries()) same(sub, `${at}/${k}/${n}`);
    }
    for (const k of SAME_VALUE_MAP) {
      const map = node[k];
      if (isNode(map)) for (const [name, sub] of Object.entries(map)) same(sub, `${at}/${k}/${escapeSegment(name)}`);
    }
    const properties = isNode(node.properties) ? node.properties : {};
    for (const [name, sub] of Object.entries(properties))
      child(sub, `${at}/properties/${escapeSegment(name)}`, { kind: 'property', name });
    child(node.additionalProperties, `${at}/additionalProperties`, {
      kind: 'properties',
      except: new Set(Object.keys(properties)),
    });
    // A pattern may match any name: its subschema counts for all of them.
    if (isNode(node.patternProperties))
      for (const [name, sub] of Object.entries(node.patternProperties))
        child(sub, `${at}/patternProperties/${escapeSegment(name)}`, { kind: 'properties', except: new Set() });
    child(node.unevaluatedProperties, `${at}/unevaluatedProperties`, { kind: 'properties', except: new Set() });
    child(node.propertyNames, `${at}/propertyNames`, { kind: 'names' });
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    for (const [n, sub] of prefix.entries()) child(sub, `${at}/prefixItems/${n}`, { kind: 'position', index: n });
    const items = node.items;
    if (Array.isArray(items))
      for (const [n, sub] of items.entries()) child(sub, `${at}/items/${n}`, { kind: 'position', index: n });
    else child(items, `${at}/items`, { kind: 'items', from: prefix.length });
    child(node.additionalItems, `${at}/additionalItems`, {
      kind: 'items',
      from: Array.isArray(items) ? items.length : 0,
    });
    for (const k of ALL_ITEMS) child(node[k], `${at}/${k}`, { kind: 'items', from: 0 });
  }
  return { nodes, where, inPlace, children };
}
