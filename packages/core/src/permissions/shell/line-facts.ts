/**
 * What the judgement under way finds in a command line besides its subjects, at any depth: the
 * files it writes (its redirections' targets and what its commands write through their
 * arguments, see `operand-writes.ts`) and the words naming a place where credentials are kept
 * (see `secret-paths.ts`).
 */
import { namesSecret } from './secret-paths.js';

let writes: string[] = [];
let secrets: string[] = [];

/** Starts a judgement with nothing found. */
export function startLineFacts(): void {
  writes = [];
  secrets = [];
}

/** Adds `targets` to the files the line writes. */
export function noteWrites(targets: readonly string[]): void {
  for (const t of targets) writes.push(t);
}

/** Adds the words among `words` that name a place where credentials are kept. */
export function noteSecrets(words: readonly string[]): void {
  for (const w of words) if (namesSecret(w)) secrets.push(w);
}

/** What the judgement found, each list deduplicated and in order; the lists start empty again. */
export function takeLineFacts(): { readonly writes: string[]; readonly secrets: string[] } {
  const found = { writes: [...new Set(writes)], secrets: [...new Set(secrets)] };
  startLineFacts();
  return found;
}
