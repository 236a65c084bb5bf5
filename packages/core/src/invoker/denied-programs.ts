/**
 * The files of the programs a `Bash(…)` deny rule denies with every argument (`Bash(curl:*)`).
 * A rule reads the command line, so a copy of the program (`cp /usr/bin/curl ./fetch; ./fetch`),
 * a link to it, or the dynamic loader running it would pass it by another name; so each command
 * runs with these files out of its reach (as files a read deny rule covers are: a copy made in the
 * command is empty, and the program cannot be started by any name leading to it). Looked up in
 * the folders of the search path and the system's program folders, through the links that lead to
 * it (`vim` → `vim.basic`); a file that is many programs at once (busybox) is not kept.
 * Nor are the programs every build and script runs on (shells, the file and text tools, the
 * interpreters, compilers and package managers, git, and perl, which keeps files from commands
 * itself): keeping `rm` from `npm test` would break the project, not hold the rule; for them the
 * rule reads the command line, as before.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';

/** Program folders looked in besides the search path's. */
const SYSTEM_FOLDERS: readonly string[] = [
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
];

/** Programs whose files are never kept from commands (see the module comment). */
const SHARED_PROGRAMS: ReadonlySet<string> = new Set([
  ...['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'busybox', 'env', 'xargs', 'nice', 'timeout', 'nohup'],
  ...['rm', 'mv', 'cp', 'ln', 'mkdir', 'rmdir', 'touch', 'chmod', 'chown', 'install', 'dd', 'mktemp', 'tee'],
  ...['cat', 'echo', 'printf', 'test', '[', 'true', 'false', 'ls', 'head', 'tail', 'sort', 'uniq', 'cut', 'tr'],
  ...['wc', 'date', 'sleep', 'dirname', 'basename', 'readlink', 'realpath', 'stat', 'id', 'uname', 'which'],
  ...['sed', 'awk', 'gawk', 'mawk', 'grep', 'egrep', 'fgrep', 'rg', 'find', 'diff', 'patch', 'cmp'],
  ...['tar', 'gzip', 'gunzip', 'zcat', 'xz', 'bzip2', 'unzip', 'zip'],
  ...['git', 'make', 'cmake', 'perl', 'node', 'npm', 'npx', 'pnpm', 'yarn', 'corepack', 'bun', 'deno'],
  ...['python', 'python3', 'pip', 'pip3', 'ruby', 'gem', 'bundle', 'go', 'cargo', 'rustc', 'java', 'javac'],
  ...['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'ld', 'as', 'ar', 'mvn', 'gradle', 'dotnet'],
]);

/** Files that are many programs at once, by the name they are started by. */
const MULTI_CALL: ReadonlySet<string> = new Set(['busybox', 'toybox', 'coreutils', 'box64']);

/**
 * True when `real`, the file a program's name leads to (`vim` → `vim.basic`, `GET` →
 * `lwp-request`), may be kept from commands: not a file that is many programs at once, nor one of
 * the shared programs under another name (`nodejs` → `node`), with or without a version.
 */
function keepable(real: string): boolean {
  const base = basename(real);
  const bare = base.replace(/[.\d-]+$/, '');
  return !MULTI_CALL.has(base) && !MULTI_CALL.has(bare) && !SHARED_PROGRAMS.has(base) && !SHARED_PROGRAMS.has(bare);
}

/** The programs of `names` whose files are kept from commands (not the shared ones, see the module comment). */
export function programsToKeep(names: readonly string[]): string[] {
  return names.filter((n) => !SHARED_PROGRAMS.has(n));
}

/** The real paths of the files of `names`, looked up in the folders of `searchPath` and the system's, sorted. */
export function deniedProgramFiles(names: readonly string[], searchPath: string | undefined): string[] {
  const kept = programsToKeep(names);
  if (kept.length === 0) return [];
  const folders = new Set([...(searchPath ?? '').split(':').filter((d) => isAbsolute(d)), ...SYSTEM_FOLDERS]);
  const found = new Set<string>();
  for (const name of kept)
    for (const folder of folders) {
      const path = `${folder.replace(/\/+$/, '')}/${name}`;
      try {
        if (lstatSync(path, { throwIfNoEntry: false }) === undefined) continue;
        const real = realpathSync(path);
        if (lstatSync(real).isFile() && keepable(real)) found.add(real);
      } catch {
        // Gone or unreadable: nothing of it to keep.
      }
    }
  return [...found].sort();
}
