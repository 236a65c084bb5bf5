/**
 * The files the judgement under way found a command line writing: its redirection targets and
 * what its commands write through their arguments (see `operand-writes.ts`).
 */

let targets: string[] = [];

/** Starts a judgement with no write targets. */
export function startWriteTargets(): void {
  targets = [];
}

/** Adds the files `found` to the judgement's write targets. */
export function noteWriteTargets(found: readonly string[]): void {
  for (const t of found) targets.push(t);
}

/** The judgement's write targets, deduplicated, in order; the list starts empty again. */
export function takeWriteTargets(): string[] {
  const taken = [...new Set(targets)];
  targets = [];
  return taken;
}
