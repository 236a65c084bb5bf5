/**
 * What the judgement under way finds in a command line besides its subjects, at any depth: the
 * files it writes (its redirections' targets and what its commands write through their
 * arguments, see `operand-writes.ts`), the words naming a place where credentials are kept
 * (see `secret-paths.ts`), and the commands that may make symbolic links the judge cannot see
 * (see `link-makers.ts`). Each write and link maker is noted with the simple command it belongs
 * to, so a command's own writes are not held against it.
 */
import { canonicalPath } from '../path-spelling.js';
import type { LinkScope } from './link-makers.js';
import { namesSecret } from './secret-paths.js';
import { HOLE } from './shell-word.js';

interface Write {
  readonly target: string;
  /** The simple command writing it, or `undefined` for a redirection of a whole structure. */
  readonly by: number | undefined;
}

interface LinkMaker {
  readonly by: number;
  /** Anywhere, or at and below these paths. */
  readonly scope: 'anywhere' | readonly string[];
}

let writes: Write[] = [];
let makers: LinkMaker[] = [];
let secrets: string[] = [];
let commands = 0;

/** Starts a judgement with nothing found. */
export function startLineFacts(): void {
  writes = [];
  makers = [];
  secrets = [];
  commands = 0;
}

/** A new number for a simple command of the line, to note its writes and links with. */
export function newCommand(): number {
  return ++commands;
}

/** Adds `targets` to the files the line writes, by the simple command `by` (if known). */
export function noteWrites(targets: readonly string[], by?: number): void {
  for (const target of targets) writes.push({ target, by });
}

/**
 * Notes that the simple command `by` may make symbolic links: anywhere, or (`'written'`) at and
 * below `written`, the files it writes.
 */
export function noteLinkMaker(by: number, scope: LinkScope, written: readonly string[]): void {
  makers.push({ by, scope: scope === 'anywhere' ? 'anywhere' : written });
}

/** Adds the words among `words` that name a place where credentials are kept. */
export function noteSecrets(words: readonly string[]): void {
  for (const w of words) if (namesSecret(w)) secrets.push(w);
}

// `target` is `place` or below it, as written; a place or target that cannot be compared may be.
function atOrBelow(target: string, place: string): boolean {
  if (place.includes(HOLE) || target.includes(HOLE) || place.startsWith('~') || target.startsWith('~')) return true;
  if (target.startsWith('/') !== place.startsWith('/')) return true;
  const base = target.startsWith('/') ? '/' : undefined;
  const t = canonicalPath(target, base);
  const p = canonicalPath(place, base);
  if (t === undefined || p === undefined) return true;
  return p === '.' || t === p || t.startsWith(`${p}/`);
}

// Whether another command of the line may put a link where `write` goes. Commands of one line may
// run in any order (a loop, a pipeline, `&`), so where they stand in it does not matter.
function behindLink(write: Write): boolean {
  return makers.some(
    (m) => m.by !== write.by && (m.scope === 'anywhere' || m.scope.some((p) => atOrBelow(write.target, p))),
  );
}

/**
 * What the judgement found, each list deduplicated and in order; the lists start empty again.
 * `relinked` are the writes another command of the line may send through a link it makes.
 */
export function takeLineFacts(): {
  readonly writes: string[];
  readonly relinked: string[];
  readonly secrets: string[];
} {
  const found = {
    writes: [...new Set(writes.map((w) => w.target))],
    relinked: [...new Set(writes.filter(behindLink).map((w) => w.target))],
    secrets: [...new Set(secrets)],
  };
  startLineFacts();
  return found;
}
