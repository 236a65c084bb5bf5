/**
 * git's own options before its subcommand: `git -C dir -c k=v --no-pager push` runs `git push`,
 * so a rule on `git push` must see it as such. A `-c` (or `--config-env`, `--exec-path`) that
 * can make git run a program of the caller's choosing (an alias with `!`, a pager, an editor, an
 * ssh command, a diff or merge driver, a filter, a credential helper, hooks, includes) makes the
 * command opaque: it may run anything. What a subcommand itself runs (`git submodule foreach
 * 'cmd'`, `git rebase -x 'cmd'`) is judged as shell code (see `git-runs.ts`). An option that
 * points git at another repository (`-C dir`, `--git-dir`, `--work-tree`, `--bare`) adds the
 * subject of the change it is (`cd dir`, `GIT_DIR=…`).
 */
import { GIT_CODE_KEYS } from './git-code-keys.js';
import { gitRuns, type JudgeCode } from './git-runs.js';
import { OPAQUE, isStatic, type ShellWord } from './shell-word.js';

// Options taking the next word as their value (or `--opt=value`).
const VALUED = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
  '--attr-source',
  '--list-cmds',
]);

// Options without a value.
const FLAGS = new Set([
  '-p',
  '-P',
  '--paginate',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-optional-locks',
  '--no-advice',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);

// Options that have git work on another repository than the one it finds from where it runs, whose
// configuration (hooks, filters, an fsmonitor) may have been written by anyone: judged as the
// change of folder or environment they are (`cd dir`, `GIT_DIR=…`), which a rule on `git` alone
// does not cover.
const REPOSITORY_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['-C', 'cd '],
  ['--git-dir', 'GIT_DIR='],
  ['--work-tree', 'GIT_WORK_TREE='],
]);

// Options that print something and run no subcommand.
const ENDING = new Set(['-h', '--help', '--version', '--html-path', '--man-path', '--info-path']);

/** The config key of a `-c key=value` / `--config-env key=VAR` value. */
function keyOf(value: string): string {
  const eq = value.indexOf('=');
  return (eq === -1 ? value : value.slice(0, eq)).trim();
}

/**
 * The extra subjects of `git` with the words after it (`args`): `git <subcommand> …` without
 * git's own options when it has some, `OPAQUE` when one of them may run a program or cannot be
 * read statically, else none (the command as written is already a subject).
 */
export function gitSubjects(args: readonly ShellWord[], judge?: JudgeCode): string[] {
  const moved: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    if (!isStatic(w)) return [OPAQUE];
    const text = w.text;
    if (!text.startsWith('-')) break;
    const eq = text.indexOf('=');
    const name = text.startsWith('--') && eq !== -1 ? text.slice(0, eq) : text;
    if (ENDING.has(name)) return [];
    if (name === '--bare') moved.push('GIT_DIR=.');
    if (FLAGS.has(name)) continue;
    if (!VALUED.has(name)) return [OPAQUE];
    let value: ShellWord | undefined;
    if (name === text) value = args[++i];
    else value = { ...w, text: text.slice(eq + 1) };
    if (value === undefined) return [];
    if (name === '--exec-path') return [OPAQUE];
    const repository = REPOSITORY_OPTIONS.get(name);
    if (repository !== undefined) moved.push(`${repository}${value.text}`);
    if ((name === '-c' || name === '--config-env') && (!isStatic(value) || GIT_CODE_KEYS.test(keyOf(value.text))))
      return [OPAQUE];
  }
  if (i >= args.length) return moved;
  const sub = args[i]!;
  const runs =
    judge === undefined ? [] : gitRuns(isStatic(sub) ? sub.text : '', args.slice(i + 1), judge, GIT_CODE_KEYS);
  if (i === 0) return runs;
  return [['git', ...args.slice(i).map((w) => w.text)].join(' '), ...runs, ...moved];
}
