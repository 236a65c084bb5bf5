/**
 * Git settings a command allowed unasked may not add. A setting whose value git runs as a program
 * (`core.fsmonitor`, `core.hooksPath`, an alias, a filter, a credential helper) or that pulls in
 * other configuration (`include.path`) would run a program later that nobody saw. Where files can
 * be kept from a command, the configuration files that exist when it starts are read-only for it
 * (see `protected-writes.ts`); this guard covers the rest: a file the command created (`git init`,
 * a first `git config --global`) and platforms where files cannot be kept from a command. The
 * files are read before such a command and after it; an entry it added with such a key is taken
 * out again, and any earlier value of that key put back, with `git config`. Nothing else in the
 * file is touched.
 */
import { execFile } from 'node:child_process';
import { lstat, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { GIT_PROGRAM_KEYS } from '../permissions/shell/git-code-keys.js';

/** One configuration file as it was before a command. */
export interface ConfigSnapshot {
  readonly path: string;
  /** How a result names it (workspace-relative, or `~/…`). */
  readonly shown: string;
  /** Its bytes (read through a symbolic link), or `undefined` when there were none. */
  readonly content: Buffer | undefined;
  /** Whether a symbolic link stood at `path` (a dotfile kept elsewhere). */
  readonly link: boolean;
}

/** A configuration file to watch: where it is, and how a result names it. */
export interface WatchedConfig {
  readonly path: string;
  readonly shown: string;
}

// git, reading only the file named: no system or global configuration, no includes followed.
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  LC_ALL: 'C',
};

function git(args: readonly string[], input?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', [...args], { env: GIT_ENV, timeout: 10_000, maxBuffer: 16 << 20 }, (e, out) =>
      e === null ? resolve(out) : reject(e),
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** The entries of the configuration text `content`, or `undefined` when git cannot read it. */
async function entriesOf(content: Buffer): Promise<string[] | undefined> {
  try {
    const out = await git(['config', '--file', '-', '--list', '--null', '--no-includes'], content);
    return out.split('\0').filter((e) => e !== '');
  } catch {
    return undefined;
  }
}

/** Whether a symbolic link stands at `path`, and the bytes of the file it names (through the link). */
async function stateOf(path: string): Promise<{ readonly content: Buffer | undefined; readonly link: boolean }> {
  const stat = await lstat(path).catch(() => undefined);
  const link = stat?.isSymbolicLink() === true;
  if (stat === undefined || !(link || stat.isFile())) return { content: undefined, link };
  return { content: await readFile(path).catch(() => undefined), link };
}

/** The files as they are now, to compare with after a command (read only; git parses them only when they changed). */
export async function snapshotConfigs(files: readonly WatchedConfig[]): Promise<ConfigSnapshot[]> {
  return Promise.all(files.map(async ({ path, shown }) => ({ path, shown, ...(await stateOf(path)) })));
}

const keyOf = (entry: string): string => entry.slice(0, Math.max(entry.indexOf('\n'), 0) || entry.length);

/**
 * Takes out of each file what was added since `before` under a key git may run (but for keys
 * `spare` matches), putting back that key's earlier values; returns `path (key, …)` for each file
 * changed so, and a problem when one could not be mended.
 */
export async function mendConfigs(
  before: readonly ConfigSnapshot[],
  spare?: RegExp,
): Promise<{ readonly restored: string[]; readonly problem?: string }> {
  const found = await Promise.all(before.map((snap) => mendOne(snap, spare)));
  const restored = found.flatMap((f) => (f.restored === undefined ? [] : [f.restored]));
  const problems = found.flatMap((f) => (f.problem === undefined ? [] : [f.problem]));
  return problems.length === 0 ? { restored } : { restored, problem: problems.join('; ') };
}

/** {@link mendConfigs} for one file: what it names as restored, or the problem. */
async function mendOne(
  snap: ConfigSnapshot,
  spare: RegExp | undefined,
): Promise<{ readonly restored?: string; readonly problem?: string }> {
  const { content, link } = await stateOf(snap.path);
  if (link && !snap.link) {
    // A link put where a configuration file was: it would have git read another file.
    try {
      await rm(snap.path, { force: true });
      if (snap.content !== undefined) await writeFile(snap.path, snap.content, { flag: 'wx' });
      return { restored: `${snap.shown} (a symbolic link put in its place)` };
    } catch (e) {
      return { problem: `${snap.shown}: ${(e as Error).message}` };
    }
  }
  if (content === undefined || (snap.content !== undefined && content.equals(snap.content))) return {};
  const entries = snap.content === undefined ? [] : ((await entriesOf(snap.content)) ?? []);
  const old = new Set(entries);
  const now = await entriesOf(content);
  if (now === undefined) return { problem: `${snap.shown} cannot be read as git configuration any more` };
  const keys = [...new Set(now.filter((e) => !old.has(e)).map(keyOf))].filter(
    (k) => GIT_PROGRAM_KEYS.test(k) && spare?.test(k) !== true,
  );
  if (keys.length === 0) return {};
  try {
    // Through a link, the file it names is mended (git would replace the link with a file).
    const file = link ? await realpath(snap.path) : snap.path;
    for (const key of keys) {
      await git(['config', '--file', file, '--unset-all', key]).catch(() => undefined);
      for (const entry of entries)
        if (keyOf(entry).toLowerCase() === key.toLowerCase())
          await git(['config', '--file', file, '--add', key, entry.slice(key.length + 1)]);
    }
    return { restored: `${snap.shown} (${keys.join(', ')})` };
  } catch (e) {
    return { problem: `${snap.shown}: ${(e as Error).message}` };
  }
}
