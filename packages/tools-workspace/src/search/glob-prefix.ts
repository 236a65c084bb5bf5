/**
 * The literal folder prefix of an anchored glob: `src/lib/**\/*.ts` can only match paths under
 * `src/lib/`, so a walk need not enter any other folder. Both engines still walk from their start
 * (every `.gitignore` on the way is read as before, and each prefix folder is still checked against
 * them); they only leave out the folders beside the prefix, which no path of the glob is in.
 */
import type { CompiledGlob } from './glob-pattern.js';

/**
 * A component taken literally: plain name characters only, so it means the same as a glob
 * (`[...]`, `{}`, `*`, `?`, `\` escapes, `!` and spaces never occur), as a regex and as one of
 * rg's override globs; `.` and `..` are never a prefix.
 */
const LITERAL = /^[A-Za-z0-9._@%+=~-]+$/;

/** True when `name` is a component {@link literalPrefix} takes. */
function isLiteral(name: string): boolean {
  return LITERAL.test(name) && name !== '.' && name !== '..';
}

/**
 * The leading literal components of `glob` (relative to its base) before its last component;
 * `[]` for a pattern that is not anchored, matches folders only, or starts with a metacharacter.
 */
export function literalPrefix(glob: CompiledGlob): string[] {
  if (!glob.anchored || glob.dirOnly) return [];
  const body = glob.source.startsWith('/') ? glob.source.slice(1) : glob.source;
  const parts = body.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length - 1 && isLiteral(parts[i]!); i++) out.push(parts[i]!);
  return out;
}

/** `base`'s components (`''` is the root). */
export function pathParts(base: string): string[] {
  return base === '' ? [] : base.split('/');
}

/**
 * The root-relative folder every match lies under: `start` (where the walk begins) joined with
 * the glob's literal prefix when the glob is relative to `start`; for a root-relative glob, its
 * prefix when `start` is on it. `[]` when no folder beside the walk's way can be left out (or
 * `start` has a component {@link literalPrefix} would not take).
 */
export function matchFolder(glob: CompiledGlob, start: string, globBase: 'start' | 'root'): string[] {
  const from = pathParts(start);
  // rg's override globs spell the whole folder: a start named with glob syntax is not pruned under.
  if (!from.every(isLiteral)) return [];
  const prefix = literalPrefix(glob);
  if (globBase === 'start') return prefix.length === 0 ? [] : [...from, ...prefix];
  if (prefix.length <= from.length || from.some((p, i) => prefix[i] !== p)) return [];
  return prefix;
}
