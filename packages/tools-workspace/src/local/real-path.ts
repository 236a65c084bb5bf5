/**
 * Symlink-aware containment for the local disk: a lexically clean relative path is resolved
 * through `realpath` (for missing paths, through the deepest existing ancestor) and must land
 * inside the real root. Dangling symlinks are refused, because writing through one would create
 * its target wherever it points.
 */
import { lstat, realpath } from 'node:fs/promises';
import { WorkspacePathError } from '../errors.js';
import { assertWritable } from '../paths/normalize.js';

/** A path resolved on disk. */
export interface RealPath {
  /** Absolute real path (symlinks resolved for the existing part). */
  readonly abs: string;
  /** The same, relative to the real root (`''` for the root). */
  readonly rel: string;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Resolves `rel` under `root` (a real path), refusing symlinks that lead out. */
export async function resolveReal(
  root: string,
  rel: string,
  field: string,
  original: string,
  forWrite: boolean,
): Promise<RealPath> {
  const tail: string[] = [];
  let probe = rel;
  for (;;) {
    const abs = probe === '' ? root : `${root}/${probe}`;
    let real: string;
    try {
      real = await realpath(abs);
    } catch (error) {
      if (!isMissing(error) || probe === '') throw error;
      const dangling = await lstat(abs).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (dangling)
        throw new WorkspacePathError(field, original, 'symlink_escape', 'goes through a dangling symbolic link');
      const cut = probe.lastIndexOf('/');
      tail.unshift(probe.slice(cut + 1));
      probe = cut < 0 ? '' : probe.slice(0, cut);
      continue;
    }
    if (real !== root && !real.startsWith(`${root}/`)) {
      throw new WorkspacePathError(
        field,
        original,
        'symlink_escape',
        'resolves through a symbolic link to a place outside the workspace',
      );
    }
    const base = real === root ? '' : real.slice(root.length + 1);
    const realRel = [base, ...tail].filter((s) => s !== '').join('/');
    if (forWrite) assertWritable(realRel, field, original);
    return { abs: realRel === '' ? root : `${root}/${realRel}`, rel: realRel };
  }
}
