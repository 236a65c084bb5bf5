/** Path tests the lsp tools share to keep their answers to the workspace. */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** Whether `abs` is `root` or inside it (as written; links are not resolved). */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return !rel.startsWith('..') && !isAbsolute(rel);
}

/** The real path of `abs` (links resolved), or `abs` itself when it does not resolve. */
export function realOrSelf(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/** Whether `abs` is part of an installed package: a file in a `node_modules` folder. */
export function inPackage(abs: string): boolean {
  return /[\\/]node_modules[\\/]/.test(abs);
}
