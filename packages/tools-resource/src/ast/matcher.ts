/**
 * Structural matching of a compiled pattern against a parsed file. A pattern node matches a
 * target node of the same type whose children match in order; leaves compare their text.
 * `$NAME` takes one named node, `$$$NAME` a run of siblings (possibly empty, shortest first),
 * `$_` one node without binding. A name bound twice must capture identical source text.
 * Comments and other extras are skipped on both sides; unnamed target tokens the pattern does
 * not mention may be skipped where the pattern expects a token (`async` before `function`), and
 * trailing ones (`;`) at the end.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { AstError } from './ast-errors.js';
import type { CompiledPattern, PatternItem } from './pattern.js';

/**
 * Sequence steps one candidate match may take (about a second of work). A pattern that repeats a
 * metavariable between `$$$` runs (`f($$$A, $X, $$$B, $X, $$$C)`) tries every split of a long
 * list, and remembers each failure: without a bound it took minutes and gigabytes on one call
 * with 10,000 arguments. An ordinary pattern takes a few steps a candidate.
 */
export const MAX_MATCH_STEPS = 1_000_000;
/** Failed sequence matches remembered at most (about 100 MiB of keys). */
const MAX_REMEMBERED_FAILURES = 1_000_000;

/** A captured metavariable. */
export interface AstCapture {
  /** The captured source text (`''` for an empty `$$$NAME`). */
  readonly text: string;
  /** Start and end offsets in the file text (UTF-16 code units). */
  readonly start: number;
  readonly end: number;
  /** 0-based line of the capture's start. */
  readonly line: number;
}

/** One match in a file. */
export interface AstMatch {
  /** Start and end offsets of the matched text (UTF-16 code units). */
  readonly start: number;
  readonly end: number;
  /** 0-based first and last line. */
  readonly line: number;
  readonly endLine: number;
  readonly text: string;
  /** Captures by metavariable name. */
  readonly captures: ReadonlyMap<string, AstCapture>;
}

/** Bindings with an undo trail for backtracking. */
class Bindings {
  readonly map = new Map<string, AstCapture>();
  readonly #trail: string[] = [];

  mark(): number {
    return this.#trail.length;
  }

  undo(mark: number): void {
    while (this.#trail.length > mark) this.map.delete(this.#trail.pop()!);
  }

  /** Binds `name`, or checks it against its earlier capture. */
  bind(name: string | undefined, capture: AstCapture): boolean {
    if (name === undefined) return true;
    const prior = this.map.get(name);
    if (prior !== undefined) return prior.text === capture.text;
    this.map.set(name, capture);
    this.#trail.push(name);
    return true;
  }
}

function significant(node: Node): Node[] {
  const out: Node[] = [];
  for (const c of node.children) if (!c.isExtra) out.push(c);
  return out;
}

function captureOf(
  source: string,
  nodes: readonly Node[],
  from: number,
  to: number,
  at: number,
  line: number,
): AstCapture {
  if (to <= from) return { text: '', start: at, end: at, line };
  const first = nodes[from]!;
  const last = nodes[to - 1]!;
  return {
    text: source.slice(first.startIndex, last.endIndex),
    start: first.startIndex,
    end: last.endIndex,
    line: first.startPosition.row,
  };
}

/** The names a pattern item uses, itself and nested. */
function namesIn(item: PatternItem, out: Set<string>): void {
  if (item.kind === 'meta') {
    if (item.name !== undefined) out.add(item.name);
    return;
  }
  for (const c of item.children) namesIn(c, out);
}

class Matcher {
  /** Where the last partial sequence match stopped (index into the target nodes). */
  stoppedAt = -1;
  /**
   * Sequence matches known to fail. A failure depends only on where it started (pattern items,
   * target node list, positions) and on the captures of the names still to be matched, so it is
   * recorded under exactly that: several `$$$` runs in one list stay polynomial, not exponential.
   */
  readonly #failed = new Set<string>();
  /** Per pattern item list: an id, and the names used by its items from each index on. */
  readonly #lists = new Map<readonly PatternItem[], { id: number; suffixNames: string[][] }>();
  #steps = 0;

  /** Starts the step count of one candidate match. */
  startCandidate(): void {
    this.#steps = 0;
    // The failures are a cache: dropping them costs time, never correctness, and bounds memory.
    if (this.#failed.size > MAX_REMEMBERED_FAILURES) this.#failed.clear();
  }

  constructor(
    readonly source: string,
    readonly maxSteps = MAX_MATCH_STEPS,
  ) {}

  #list(items: readonly PatternItem[]): { id: number; suffixNames: string[][] } {
    let l = this.#lists.get(items);
    if (l === undefined) {
      const suffixNames: string[][] = [];
      const names = new Set<string>();
      for (let i = items.length - 1; i >= 0; i--) {
        namesIn(items[i]!, names);
        suffixNames[i] = [...names];
      }
      l = { id: this.#lists.size, suffixNames };
      this.#lists.set(items, l);
    }
    return l;
  }

  node(pattern: PatternItem, target: Node, b: Bindings): boolean {
    if (pattern.kind === 'meta') {
      if (!target.isNamed) return false;
      return b.bind(pattern.name, {
        text: this.source.slice(target.startIndex, target.endIndex),
        start: target.startIndex,
        end: target.endIndex,
        line: target.startPosition.row,
      });
    }
    if (pattern.type !== target.type) return false;
    if (pattern.text !== undefined) return this.source.slice(target.startIndex, target.endIndex) === pattern.text;
    return this.seq(pattern.children, 0, significant(target), 0, b, true, target.endIndex, target.endPosition.row);
  }

  /**
   * Matches pattern items `[pi..]` against target nodes `[ti..]`. With `whole`, every named
   * target node must be consumed; without, the run may stop early (sibling-sequence patterns).
   */
  seq(
    items: readonly PatternItem[],
    pi: number,
    nodes: readonly Node[],
    ti: number,
    b: Bindings,
    whole: boolean,
    endAt: number,
    endLine: number,
  ): boolean {
    if (pi === items.length) return this.#seqStep(items, pi, nodes, ti, b, whole, endAt, endLine);
    if (++this.#steps > this.maxSteps)
      throw new AstError(
        'AST_PATTERN_TOO_COSTLY',
        `matching this pattern at one place took more than ${this.maxSteps} steps (a metavariable repeated between $$$ runs tries every split of a long list): anchor it with literal code, or use fewer $$$ runs`,
        { max_steps: this.maxSteps },
      );
    const list = this.#list(items);
    // A target list is known by its first node (an empty one by where it ends: all empty lists
    // ending there behave alike).
    let key = `${list.id}:${pi}:${nodes[0]?.id ?? -1}:${endAt}:${ti}:${whole ? 1 : 0}`;
    for (const name of list.suffixNames[pi]!) {
      const bound = b.map.get(name);
      if (bound !== undefined) key += `|${name}=${bound.start}-${bound.end}`;
    }
    if (this.#failed.has(key)) return false;
    if (this.#seqStep(items, pi, nodes, ti, b, whole, endAt, endLine)) return true;
    this.#failed.add(key);
    return false;
  }

  #seqStep(
    items: readonly PatternItem[],
    pi: number,
    nodes: readonly Node[],
    ti: number,
    b: Bindings,
    whole: boolean,
    endAt: number,
    endLine: number,
  ): boolean {
    if (pi === items.length) {
      if (!whole) {
        this.stoppedAt = ti;
        return true;
      }
      for (let k = ti; k < nodes.length; k++) if (nodes[k]!.isNamed) return false;
      return true;
    }
    const item = items[pi]!;
    if (item.kind === 'meta' && item.multi) {
      for (let k = ti; k <= nodes.length; k++) {
        const at = ti < nodes.length ? nodes[ti]!.startIndex : endAt;
        const line = ti < nodes.length ? nodes[ti]!.startPosition.row : endLine;
        const mark = b.mark();
        if (
          b.bind(item.name, captureOf(this.source, nodes, ti, k, at, line)) &&
          this.seq(items, pi + 1, nodes, k, b, whole, endAt, endLine)
        )
          return true;
        b.undo(mark);
      }
      // A separator next to an empty run (`f($A, $$$REST)` against `f(a)`) is not required.
      return false;
    }
    if (ti === nodes.length) {
      // A statement terminator the target leaves out (automatic semicolons) is not required.
      return isTerminator(item) && this.seq(items, pi + 1, nodes, ti, b, whole, endAt, endLine);
    }
    const mark = b.mark();
    if (this.node(item, nodes[ti]!, b) && this.seq(items, pi + 1, nodes, ti + 1, b, whole, endAt, endLine)) return true;
    b.undo(mark);
    // An unnamed target token may be skipped where the pattern expects a token too
    // (`function` against `async function`), never in place of a named node.
    if (!nodes[ti]!.isNamed && item.kind === 'node' && !item.named)
      return this.seq(items, pi, nodes, ti + 1, b, whole, endAt, endLine);
    if (isTerminator(item)) return this.seq(items, pi + 1, nodes, ti, b, whole, endAt, endLine);
    return false;
  }
}

function isTerminator(item: PatternItem): boolean {
  return item.kind === 'node' && !item.named && item.text === ';';
}

function matchOf(source: string, first: Node, last: Node, b: Bindings): AstMatch {
  return {
    start: first.startIndex,
    end: last.endIndex,
    line: first.startPosition.row,
    endLine: last.endPosition.row,
    text: source.slice(first.startIndex, last.endIndex),
    captures: new Map(b.map),
  };
}

/** Every named node of a tree, in document order. */
function namedNodes(tree: Tree): Node[] {
  const out: Node[] = [];
  const cursor = tree.walk();
  try {
    for (;;) {
      if (cursor.nodeIsNamed) out.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return out;
    }
  } finally {
    cursor.delete();
  }
}

/** True when the file text can hold a match at all (every literal of the pattern occurs in it). */
export function mayMatch(pattern: CompiledPattern, source: string): boolean {
  for (const literal of pattern.literals) if (!source.includes(literal)) return false;
  return true;
}

/** The matches of `pattern` in `tree` (parsed from `source`), in document order, nested ones included. */
export function findMatches(pattern: CompiledPattern, tree: Tree, source: string, maxSteps?: number): AstMatch[] {
  const m = new Matcher(source, maxSteps);
  const out: AstMatch[] = [];
  const first = pattern.roots[0]!;
  const candidates =
    first.kind === 'node' ? tree.rootNode.descendantsOfType(first.type) : namedNodes(tree).filter((n) => !n.isExtra);
  if (pattern.roots.length === 1) {
    for (const node of candidates) {
      const b = new Bindings();
      m.startCandidate();
      if (m.node(first, node, b)) out.push(matchOf(source, node, node, b));
    }
    return out;
  }
  // A run of siblings: try it at each candidate among its parent's children.
  for (const node of candidates) {
    const parent = node.parent;
    if (parent === null) continue;
    const siblings = significant(parent);
    const at = siblings.findIndex((s) => s.startIndex === node.startIndex && s.endIndex === node.endIndex);
    if (at < 0) continue;
    const b = new Bindings();
    m.startCandidate();
    if (m.seq(pattern.roots, 0, siblings, at, b, false, parent.endIndex, parent.endPosition.row) && m.stoppedAt > at)
      out.push(matchOf(source, node, siblings[m.stoppedAt - 1]!, b));
  }
  return out;
}

/** The outermost matches, dropping each match that overlaps one kept before it. */
export function outermost(matches: readonly AstMatch[]): AstMatch[] {
  const out: AstMatch[] = [];
  let end = -1;
  for (const m of [...matches].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (m.start < end) continue;
    out.push(m);
    end = m.end;
  }
  return out;
}
