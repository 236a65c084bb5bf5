/**
 * Files a repository's configuration includes that git does not read now: an `includeIf` whose
 * condition does not hold (`onbranch:feat` while on `main`). `git config --list` shows neither
 * their settings nor the files they include, yet a command line can make the condition hold
 * (`git checkout feat && git diff`) and have the next git read them. So they are held like the
 * files git reads now: listed on their own (`git config --file`, which reads no includes, then
 * the files they include in turn), read-only for a command allowed unasked, and their settings
 * that run a program turned off.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { gitOutput } from './git-store.js';

/** Most files read this way for one repository. */
const MAX_SLEEPING = 32;

const DIRECTIVE = /^(?:include|includeif\..+)\.path$/i;

/** The include directives of a repository's configuration that git does not follow now, with what they hold. */
export interface SleepingIncludes {
  /** The files (that exist), absolute. */
  readonly files: readonly string[];
  /**
   * Their settings in the form of `git config --list --show-origin --show-scope -z`, each of scope
   * `local`: what the repository's own configuration would add if they were read.
   */
  readonly listed: string;
  /** The first of more files than are read this way, if there are more: a command cannot be held to them. */
  readonly unread?: string;
}

/** Where an include directive with `value`, read from the file `origin` (absolute), points. */
function target(value: string, origin: string | undefined): string | undefined {
  if (value === '') return undefined;
  if (value.startsWith('~/')) return join(homedir(), value.slice(2));
  if (isAbsolute(value)) return value;
  return origin === undefined ? undefined : resolve(dirname(origin), value);
}

/** The fields of a `-z` listing (`[scope,] origin, key\nvalue` per entry) as entries. */
function entriesOf(listed: string, scoped: boolean): { scope: string; origin: string; record: string }[] {
  const fields = listed.split('\0');
  const width = scoped ? 3 : 2;
  const out: { scope: string; origin: string; record: string }[] = [];
  for (let i = 0; i + width - 1 < fields.length; i += width)
    out.push({ scope: scoped ? fields[i]! : 'local', origin: fields[i + width - 2]!, record: fields[i + width - 1]! });
  return out;
}

/**
 * The sleeping includes of the repository at `root` (whose top folder, from which git names the
 * files it lists, is `top`), from its configuration as listed with `--show-origin --show-scope -z`.
 */
export function sleepingIncludes(root: string, top: string, listed: string): SleepingIncludes {
  const entries = entriesOf(listed, true);
  const originOf = (origin: string): string | undefined =>
    origin.startsWith('file:') ? resolve(top, origin.slice('file:'.length)) : undefined;
  const read = new Set(entries.map((e) => originOf(e.origin)).filter((o): o is string => o !== undefined));
  const queue: string[] = [];
  const queueDirectives = (from: readonly { scope: string; origin: string; record: string }[]): void => {
    for (const e of from) {
      if (e.scope !== 'local' && e.scope !== 'worktree') continue;
      const nl = e.record.indexOf('\n');
      if (nl < 0 || !DIRECTIVE.test(e.record.slice(0, nl))) continue;
      const file = target(e.record.slice(nl + 1), originOf(e.origin));
      if (file !== undefined && !read.has(file) && existsSync(file)) {
        read.add(file);
        queue.push(file);
      }
    }
  };
  queueDirectives(entries);
  const files: string[] = [];
  let out = '';
  while (queue.length > 0 && files.length < MAX_SLEEPING) {
    const file = queue.shift()!;
    files.push(file);
    // Git cannot read it when this fails: nor can the git of a command.
    const own = gitOutput(root, ['config', '--file', file, '--list', '--show-origin', '--null']) ?? '';
    const found = entriesOf(own, false).map((e) => ({ ...e, origin: `file:${file}` }));
    for (const e of found) out += `local\0${e.origin}\0${e.record}\0`;
    queueDirectives(found);
  }
  return { files, listed: out, ...(queue.length > 0 ? { unread: queue[0]! } : {}) };
}
