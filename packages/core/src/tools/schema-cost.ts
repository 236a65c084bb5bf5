/**
 * A static bound on what validating a value against a JSON Schema can cost, checked before a
 * schema from an untrusted source (an MCP server's tool, a model's `generate_object` schema) is
 * compiled. A small schema can be made costly: 40 `$defs`, each an `anyOf` of two `$ref`s to the
 * next, make a validator try 2^40 branches on one badly typed value, and a recursive `$ref` that
 * reaches itself twice per level doubles the work at each level of the value's nesting. Both run
 * synchronously and would freeze the process.
 *
 * The schema is read as a graph of subschemas: edges that apply a subschema to the same value
 * (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) and edges
 * that apply one to a child of the value (`properties`, `items`, `additionalProperties`, ...).
 * A cycle of same-value edges never ends; otherwise, for each shape a value may take (its path of
 * property names and item positions), the number of subschema checks one value can cause is
 * counted, worst case (every branch tried). Over {@link MAX_CHECKS_PER_VALUE}, the schema is
 * refused, naming the value. (ajv checking one wrong value against 2,047 subschemas takes about
 * 20 ms, against 16,383 about 200 ms; the built-in tools need at most a few dozen.) A schema
 * whose shapes are too many to follow within a bounded effort is refused as well: when the check
 * cannot judge, it fails closed.
 */
import { type ChildEdge, type Graph, schemaGraph } from './schema-graph.js';

/** The most subschema checks one value (at any depth) may cause when a schema validates it. */
export const MAX_CHECKS_PER_VALUE = 1_000;

/** The most value shapes (distinct sets of subschemas applied to one value) the check follows. */
const MAX_SHAPES = 20_000;

/**
 * The most steps (subschema and edge visits) the check spends, over all shapes: the built-in
 * tools need under a hundred, a recursive node of 2,500 properties 15,000.
 */
const MAX_WORK = 100_000;

/** Why a schema whose cost cannot be judged within the bounds above is refused. */
const INTRICATE = `is too intricate to check its cost (more than ${MAX_SHAPES} shapes of values or ${MAX_WORK} steps); simplify its references and recursion`;

/** The longest value path a reason quotes. */
const MAX_PATH_CHARS = 120;

/** How many times each subschema (by index) is applied to one value, before same-value edges are followed. */
type Entry = Map<number, number>;

/** A topological order of the same-value edges, or the edge that closes a cycle. */
function topoOrder(g: Graph): number[] | { from: number; to: number } {
  const order = new Array<number>(g.nodes.length);
  let next = g.nodes.length;
  const state = new Uint8Array(g.nodes.length); // 0 new, 1 open, 2 done
  for (let start = 0; start < g.nodes.length; start++) {
    if (state[start] !== 0) continue;
    const stack: { node: number; edge: number }[] = [{ node: start, edge: 0 }];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const edges = g.inPlace[top.node]!;
      if (top.edge === edges.length) {
        state[top.node] = 2;
        order[top.node] = --next;
        stack.pop();
        continue;
      }
      const to = edges[top.edge++]!;
      if (state[to] === 1) return { from: top.node, to };
      if (state[to] === 0) {
        state[to] = 1;
        stack.push({ node: to, edge: 0 });
      }
    }
  }
  return order;
}

/** The shape of a value path for a reason: `(root)`, or the pointer, shortened in the middle. */
function describePath(path: readonly string[]): string {
  if (path.length === 0) return 'the value itself (the root)';
  const text = `/${path.join('/')}`;
  const shown =
    text.length > MAX_PATH_CHARS ? `${text.slice(0, MAX_PATH_CHARS / 2)}…${text.slice(-MAX_PATH_CHARS / 2)}` : text;
  return `the value at ${shown} (${path.length} level${path.length === 1 ? '' : 's'} deep)`;
}

/** Keys of an entry, for the set of shapes already followed. */
function entryKey(entry: Entry): string {
  return [...entry.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, c]) => `${n}:${c}`)
    .join(',');
}

/** The entry of `key` in `map`, made empty on first use. */
function entryOf<K>(map: Map<K, Entry>, key: K): Entry {
  const found = map.get(key);
  if (found !== undefined) return found;
  const entry: Entry = new Map();
  map.set(key, entry);
  return entry;
}

const add = (entry: Entry, node: number, count: number): void => {
  entry.set(node, Math.min((entry.get(node) ?? 0) + count, Number.MAX_SAFE_INTEGER));
};

/**
 * Why validating values against `schema` could run away, or `undefined` when every value is
 * checked against at most {@link MAX_CHECKS_PER_VALUE} subschemas. The reason reads after "the
 * schema" ("has a subschema at #/$defs/a that leads back to …", "is too costly to check: …").
 * Besides the cost, it refuses what it cannot follow: a `$ref` that does not point at a subschema
 * inside the schema (data and unknown keywords are no subschemas), `$dynamicRef`/`$recursiveRef`, and an `$id` below the root.
 */
export function schemaCostProblem(schema: unknown): string | undefined {
  return schemaCost(schema).problem;
}

/** What {@link schemaCost} found: why the schema is refused, or the most checks one value meets. */
export interface SchemaCost {
  readonly problem?: string;
  /** The most subschemas any one value is checked against (when there is no problem). */
  readonly perValue: number;
}

/** {@link schemaCostProblem}, and when there is no problem, the most checks one value meets. */
export function schemaCost(schema: unknown): SchemaCost {
  let perValue = 1;
  const problem = costProblem(schema, (total) => {
    if (total > perValue) perValue = total;
  });
  return problem === undefined ? { perValue } : { problem, perValue };
}

function costProblem(schema: unknown, seenTotal: (total: number) => void): string | undefined {
  const g = schemaGraph(schema);
  if (typeof g === 'string') return g;
  if (g.nodes.length === 0) return undefined; // a boolean schema
  const order = topoOrder(g);
  if (!Array.isArray(order))
    return `has a subschema at ${g.where[order.from]} that leads back to ${g.where[order.to]} without descending into the value, so validation would never end; recurse only through properties or items`;
  const seen = new Set<string>(['0:1']);
  const seenParents = new Set<string>();
  const queue: { entry: Entry; path: string[] }[] = [{ entry: new Map([[0, 1]]), path: [] }];
  let work = 0;
  for (let head = 0; head < queue.length; head++) {
    const { entry, path } = queue[head]!;
    // Every subschema this value meets, counted once per route.
    const reached = new Set<number>(entry.keys());
    const stack = [...reached];
    while (stack.length > 0)
      for (const to of g.inPlace[stack.pop()!]!)
        if (!reached.has(to)) {
          reached.add(to);
          stack.push(to);
        }
    work += reached.size;
    if (work > MAX_WORK || queue.length > MAX_SHAPES) return INTRICATE;
    const counts = new Map(entry);
    let total = 0;
    for (const node of [...reached].sort((a, b) => order[a]! - order[b]!)) {
      const c = counts.get(node) ?? 0;
      total = Math.min(total + c, Number.MAX_SAFE_INTEGER);
      work += g.inPlace[node]!.length;
      for (const to of g.inPlace[node]!) add(counts, to, c);
    }
    seenTotal(total);
    if (total > MAX_CHECKS_PER_VALUE)
      return `is too costly to check: ${describePath(path)} would be checked against ${total >= Number.MAX_SAFE_INTEGER ? 'more than 2^53' : total} subschemas, and at most ${MAX_CHECKS_PER_VALUE} are allowed per value; anyOf/oneOf/allOf branches and $refs that reach one subschema by several routes multiply, and so does each level of a recursion that applies a subschema to the same child more than once`;
    // Values met by the same subschemas with children, as often, have the same children: follow them once.
    const parents = [...reached].filter((node) => g.children[node]!.length > 0);
    const expanded = entryKey(new Map(parents.map((node) => [node, counts.get(node) ?? 0])));
    if (seenParents.has(expanded)) continue;
    seenParents.add(expanded);
    // The children: each property name and item position the reached subschemas name, one other
    // name and one other position (what only wildcards reach), and the property names themselves.
    const named = new Map<string, Entry>();
    const positioned = new Map<number, Entry>();
    const names: Entry = new Map();
    const wildProperties: [ChildEdge & { kind: 'properties' }, number][] = [];
    const wildItems: [ChildEdge & { kind: 'items' }, number][] = [];
    for (const node of reached) {
      const c = counts.get(node) ?? 0;
      for (const edge of g.children[node]!) {
        work++;
        if (edge.kind === 'property') add(entryOf(named, edge.name), edge.to, c);
        else if (edge.kind === 'position') add(entryOf(positioned, edge.index), edge.to, c);
        else if (edge.kind === 'properties') wildProperties.push([edge, c]);
        else if (edge.kind === 'items') wildItems.push([edge, c]);
        else add(names, edge.to, c);
      }
    }
    work += (named.size + 1) * wildProperties.length + (positioned.size + 1) * wildItems.length;
    if (work > MAX_WORK) return INTRICATE;
    const children: [string, Entry][] = [];
    for (const [name, entry] of named) {
      for (const [edge, c] of wildProperties) if (!edge.except.has(name)) add(entry, edge.to, c);
      children.push([name.replace(/~/g, '~0').replace(/\//g, '~1'), entry]);
    }
    const otherName: Entry = new Map();
    for (const [edge, c] of wildProperties) add(otherName, edge.to, c);
    children.push(['*', otherName]);
    for (const [index, entry] of positioned) {
      for (const [edge, c] of wildItems) if (index >= edge.from) add(entry, edge.to, c);
      children.push([String(index), entry]);
    }
    const otherPosition: Entry = new Map();
    for (const [edge, c] of wildItems) add(otherPosition, edge.to, c);
    children.push(['*', otherPosition], ['(a property name)', names]);
    for (const [seg, child] of children) {
      if (child.size === 0) continue;
      const key = entryKey(child);
      work += child.size;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ entry: child, path: [...path, seg] });
    }
  }
  return undefined;
}
