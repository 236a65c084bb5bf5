/**
 * Bounded regular-expression matching for the patterns this package runs in JavaScript: globs
 * (from the model and from `.gitignore` files) and the JS engine's grep patterns. A glob such as
 * `*a*a*a*a*a*a*a*a*a*a*a*a*b` compiles to a regex that backtracks exponentially on a long name
 * and would hold the whole process. V8 can finish such a match on its linear-time engine once
 * it has backtracked too much; matches are the same, only the engine changes, and only for
 * patterns that engine supports: no back-references, look-arounds or `i` flag, and no large
 * repetition counts ({@link runsInLinearTime} tells).
 */
import { setFlagsFromString } from 'node:v8';

/** V8's flag for its linear-time engine (known only with `--enable-experimental-regexp-engine`). */
const LINEAR = 'l';

let enabled = false;
let linearFlag = false;

/** Turns on V8's linear-time fallback for excessive backtracking (once, before the first pattern is compiled). */
export function boundBacktracking(): void {
  if (enabled) return;
  enabled = true;
  try {
    setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    setFlagsFromString('--enable-experimental-regexp-engine');
    new RegExp('a', LINEAR);
    linearFlag = true;
  } catch {
    // A runtime without V8 flags keeps its own engine; every grep pattern is then run guarded.
  }
}

/** True when V8's linear-time engine can run `source` (with `flags`), so the fallback bounds it. */
export function runsInLinearTime(source: string, flags = ''): boolean {
  boundBacktracking();
  if (!linearFlag) return false;
  try {
    new RegExp(source, LINEAR + flags);
    return true;
  } catch {
    return false;
  }
}
