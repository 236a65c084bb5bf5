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

/** Compiles `glob` (a rule pattern) to an automaton. */
export function compileGlobAutomaton(glob: string): GlobAutomaton {
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
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '*' && body[i + 1] === '*' && body[i + 2] === '/') {
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

function step(a: GlobAutomaton, states: readonly number[], ch: string): number[] {
  const next: number[] = [];
  for (const s of states) for (const e of a.edges[s]!) if (accepts(e.on, ch)) next.push(e.to);
  return closure(a, next);
}

/** True when some value of the holes of `subject` makes it match the glob (deny rules). */
export function globMayMatch(a: GlobAutomaton, subject: string): boolean {
  const seen = new Set<string>();
  const stack: [number, number][] = closure(a, [0]).map((s) => [s, 0]);
  while (stack.length > 0) {
    const [s, pos] = stack.pop()!;
    const key = `${s}@${pos}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (pos === subject.length) {
      if (s === a.accept) return true;
      continue;
    }
    const ch = subject[pos]!;
    if (ch === HOLE) {
      // The hole ends here, or it goes on with any character the glob can take.
      for (const n of closure(a, [s])) stack.push([n, pos + 1]);
      for (const e of a.edges[s]!) for (const n of closure(a, [e.to])) stack.push([n, pos]);
    } else {
      for (const n of step(a, [s], ch)) stack.push([n, pos + 1]);
    }
  }
  return false;
}

/** True when every value of the holes of `subject` makes it match the glob (allow rules). */
export function globMustMatch(a: GlobAutomaton, subject: string): boolean {
  const seen = new Set<string>();
  const stack: [number[], number][] = [[closure(a, [0]), 0]];
  while (stack.length > 0) {
    const [states, pos] = stack.pop()!;
    const key = `${states.join(',')}@${pos}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (states.length === 0) return false;
    if (pos === subject.length) {
      if (!states.includes(a.accept)) return false;
      continue;
    }
    const ch = subject[pos]!;
    if (ch !== HOLE) {
      stack.push([step(a, states, ch), pos + 1]);
      continue;
    }
    // Every set of states some string can reach from here must go on matching.
    const reached = new Map<string, number[]>([[states.join(','), states]]);
    const frontier = [states];
    while (frontier.length > 0) {
      const from = frontier.pop()!;
      for (const c of a.alphabet) {
        const to = step(a, from, c);
        const k = to.join(',');
        if (reached.has(k)) continue;
        reached.set(k, to);
        frontier.push(to);
      }
    }
    for (const set of reached.values()) stack.push([set, pos + 1]);
  }
  return true;
}
