/**
 * Finding programs on PATH, shared by the packs that start outside tools (language servers, debug
 * adapters, kernels).
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** True when `path` is a regular file this process may execute. */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute folders of PATH, in order. An empty or relative entry (`.`, `bin`) is left out: it
 * names a different folder for every working directory, and a program found there would be
 * started in the project, where it would be the project's own file.
 */
export function pathDirs(): string[] {
  return (process.env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d));
}

/** The absolute path of `program` on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of pathDirs()) if (executable(join(dir, program))) return join(dir, program);
  return undefined;
}

/**
 * The executables on PATH whose names match `re`, highest version first (the number after the
 * last `-`, as in Debian's `clangd-19`; a name without one ranks as `unversioned`).
 */
export function onPathMatching(re: RegExp, unversioned = 1000): string[] {
  const found: string[] = [];
  for (const dir of pathDirs()) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) if (re.test(n) && executable(join(dir, n))) found.push(join(dir, n));
  }
  const version = (p: string): number => Number(/-(\d+)$/.exec(p)?.[1] ?? unversioned);
  return found.sort((a, b) => version(b) - version(a));
}

/** `program`, else the `program-NN` on PATH with the highest NN (Debian's `clangd-19`), or undefined. */
export function onPathVersioned(program: string): string | undefined {
  return onPath(program) ?? onPathMatching(new RegExp(`^${program.replace(/[.+]/g, '\\$&')}-(\\d+)$`))[0];
}
