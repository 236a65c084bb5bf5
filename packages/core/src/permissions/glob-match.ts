/**
 * Matches a rule glob (the dialect of `glob.ts`) against a shell subject that may hold holes
 * (`HOLE`: text computed at run time, any string). A deny rule asks whether *some* value of the
 * holes matches (`globMayMatch`); an allow rule asks whether *every* value does
 * (`globMustMatch`). Both run over a small automaton built from the glob, so a hole is judged
 * exactly, not by sampling values. For a subject without holes both equal the compiled regex.
 */
import { HOLE } from './shell/shell-word.js';

// A character class of the glob: one literal character, any character but `/`, or any character.
type CharClass = string | 'NOT_SLASH' | 'ANY';

interface Edge {
  readonly on: CharClass;
  readonly to: number;
}

/** A glob compiled to an automaton with epsilon moves; state 0 starts, `accept` accepts. */
export interface GlobAutomaton {
  readonly edges: readonly (readonly Edge[])[];
  readonly epsilon: readonly (readonly number[])[];
  readonly accept: number;
  /** Every literal character of the glob, plus `/`: the characters the automaton tells apart. */
  readonly alphabet: readonly string[];
}

// A character that is no literal of any glob and not `/`: stands for every such character.
const OTHER = '\uE001';

/** Compiles `glob` (a rule pattern) to an automaton; `anySlash`: `*` matches `/` too (command rules). */
export function compileGlobAutomaton(glob: string, anySlash = false): GlobAutomaton {
  const edges: Edge[][] = [[]];
  const epsilon: number[][] = [[]];
  const literals = new Set<string>(['/']);
  const add = (): number => {
    edges.push([]);
    epsilon.push([]);
    return edges.length - 1;
  };
  let state = 0;
  const prefix = glob.endsWith(':*');
  const body = prefix ? glob.slice(0, -2) : glob;
  const loop = (on: CharClass): void => {
    const next = add();
    edges[state]!.push({ on, to: state });
    epsilon[state]!.push(next);
    state = next;
  };
  // A command rule's trailing ` *` is also nothing at all: `git push *` matches `git push`, as `git push:*` does.
  const tail = anySlash && !prefix ? / \*+$/.exec(body) : null;
  const tailAt = tail !== null && tail.index > 0 ? tail.index : -1;
  let beforeTail: number | undefined;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (i === tailAt) beforeTail = state;
    if (c === '*' && anySlash) {
      while (body[i + 1] === '*') i++;
      loop('ANY');
    } else if (c === '*' && body[i + 1] === '*' && body[i + 2] === '/') {
      // `**/` is empty or any text ending in `/`.
      const aux = add();
      const next = add();
      epsilon[state]!.push(next, aux);
      edges[aux]!.push({ on: 'ANY', to: aux }, { on: '/', to: next });
      state = next;
      i += 2;
    } else if (c === '*' && body[i + 1] === '*') {
      loop('ANY');
      i++;
    } else if (c === '*') {
      loop('NOT_SLASH');
    } else {
      const next = add();
      edges[state]!.push({ on: c === '?' ? 'NOT_SLASH' : c, to: next });
      if (c !== '?') literals.add(c);
      state = next;
    }
  }
  if (prefix) loop('ANY');
  if (beforeTail !== undefined) epsilon[beforeTail]!.push(state);
  return { edges, epsilon, accept: state, alphabet: [...literals, OTHER] };
}

function accepts(on: CharClass, ch: string): boolean {
  return on === 'ANY' || (on === 'NOT_SLASH' ? ch !== '/' : on === ch);
}

function closure(a: GlobAutomaton, states: Iterable<number>): number[] {
  const seen = new Set<number>(states);
  const stack = [...seen];
  while (stack.length > 0) {
    for (const n of a.epsilon[stack.pop()!]!) {
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(n);
    }
  }
  return [...seen].sort((x, y) => x - y);
}

/**
 * The automaton made deterministic as it is used: each set of states it can be in gets a number,
 * and each (set, character) step is computed once. A subject is then matched in one lookup a
 * character, however long it is. Characters that are no literal of the glob all step alike, so
 * the table stays as small as the glob.
 */
interface Deterministic {
  readonly sets: number[][];
  readonly ids: Map<string, number>;
  readonly steps: Map<string, number>[];
  /** Per set: every set some string (the empty one included) leads to from it. */
  readonly reach: (readonly number[] | undefined)[];
  /** Per set: the union of {@link Deterministic.reach}, as a set. */
  readonly reachUnion: (number | undefined)[];
  readonly literals: ReadonlySet<string>;
  readonly start: number;
  readonly empty: number;
}

const deterministic = new WeakMap<GlobAutomaton, Deterministic>();

function idOf(d: Deterministic, states: number[]): number {
  const key = states.join(',');
  let id = d.ids.get(key);
  if (id === undefined) {
    id = d.sets.length;
    d.sets.push(states);
    d.ids.set(key, id);
    d.steps.push(new Map());
    d.reach.push(undefined);
    d.reachUnion.push(undefined);
  }
  return id;
}

function deterministicOf(a: GlobAutomaton): Deterministic {
  let d = deterministic.get(a);
  if (d === undefined) {
    const base = {
      sets: [],
      ids: new Map(),
      steps: [],
      reach: [],
      reachUnion: [],
      literals: new Set(a.alphabet),
      start: 0,
      empty: 0,
    };
    const made: Deterministic = { ...base, start: idOf(base, closure(a, [0])), empty: idOf(base, []) };
    d = made;
    deterministic.set(a, d);
  }
  return d;
}

function stepId(a: GlobAutomaton, d: Deterministic, id: number, ch: string): number {
  const c = d.literals.has(ch) ? ch : OTHER;
  const steps = d.steps[id]!;
  let to = steps.get(c);
  if (to === undefined) {
    const next: number[] = [];
    for (const s of d.sets[id]!) for (const e of a.edges[s]!) if (accepts(e.on, c)) next.push(e.to);
    to = idOf(d, closure(a, next));
    steps.set(c, to);
  }
  return to;
}

/** Every set of states some string (the empty one included) leads to from set `id`. */
function reachOf(a: GlobAutomaton, d: Deterministic, id: number): readonly number[] {
  let reached = d.reach[id];
  if (reached === undefined) {
    const seen = new Set<number>([id]);
    const frontier = [id];
    while (frontier.length > 0) {
      const from = frontier.pop()!;
      for (const c of a.alphabet) {
        const to = stepId(a, d, from, c);
        if (seen.has(to)) continue;
        seen.add(to);
        frontier.push(to);
      }
    }
    reached = [...seen];
    d.reach[id] = reached;
  }
  return reached;
}

/** The set of every state some string leads to from set `id`. */
function reachUnionOf(a: GlobAutomaton, d: Deterministic, id: number): number {
  let union = d.reachUnion[id];
  if (union === undefined) {
    const states = new Set<number>();
    for (const r of reachOf(a, d, id)) for (const s of d.sets[r]!) states.add(s);
    union = idOf(
      d,
      [...states].sort((x, y) => x - y),
    );
    d.reachUnion[id] = union;
  }
  return union;
}

/** True when some value of the holes of `subject` makes it match the glob (deny rules). */
export function globMayMatch(a: GlobAutomaton, subject: string): boolean {
  const d = deterministicOf(a);
  let id = d.start;
  // By UTF-16 unit, as the glob's `?` and the compiled regex count.
  for (let i = 0; i < subject.length; i++) {
    const ch = subject[i]!;
    // A hole is any text, the empty one included: the states some text leads to.
    id = ch === HOLE ? reachUnionOf(a, d, id) : stepId(a, d, id, ch);
    if (id === d.empty) return false;
  }
  return d.sets[id]!.includes(a.accept);
}

/** True when every value of the holes of `subject` makes it match the glob (allow rules). */
export function globMustMatch(a: GlobAutomaton, subject: string): boolean {
  const d = deterministicOf(a);
  // Every set of states some values of the holes so far lead to: each must go on matching.
  let ids: number[] = [d.start];
  for (let i = 0; i < subject.length; i++) {
    const ch = subject[i]!;
    if (ch !== HOLE && ids.length === 1) {
      const to = stepId(a, d, ids[0]!, ch);
      if (to === d.empty) return false;
      ids[0] = to;
      continue;
    }
    const next = new Set<number>();
    for (const id of ids) {
      if (ch === HOLE) for (const r of reachOf(a, d, id)) next.add(r);
      else next.add(stepId(a, d, id, ch));
    }
    if (next.has(d.empty)) return false;
    ids = [...next];
  }
  return ids.every((id) => d.sets[id]!.includes(a.accept));
}
