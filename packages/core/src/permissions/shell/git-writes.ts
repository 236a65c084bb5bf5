/**
 * The files and folders a git command writes through its own arguments: the value of an output
 * option of any subcommand (`--output`, `--output-directory`, `--index-output`, `--export-marks`,
 * `--separate-git-dir`, `--object-dir`, and any long option whose name says it writes, such as
 * `--out…`, `--export…`, `--dump…`), a long option cut short as git reads it (`--out=x` is
 * `--output=x`), the short `-o` of the subcommands where it names a file, `git checkout-index
 * --prefix`, `git config --file`, and the operands of the subcommands that make a repository, a
 * worktree, a bundle or a pack (`git clone <src> <dir>`, `git init <dir>`, `git worktree add
 * <dir>`, `git bundle create <file>`, `git pack-objects <base>`, `git merge-file <current> …`),
 * and the home folder for `git maintenance start`, which writes the user's scheduler.
 * Words are read generously: one that may be a destination is taken as one.
 */

import { isOption, operands, optionValues } from './option-words.js';

/** Long options of every subcommand whose value is a file or folder written. */
const WRITTEN_LONG = [
  'output',
  'output-directory',
  'index-output',
  'export-marks',
  'export-pack-edges',
  'separate-git-dir',
  'object-dir',
];

/** A long option name that says it writes, where no list names it (fails closed). */
const WRITES_BY_NAME = /(?:^|-)(?:out|output|export|dump|dest|destination)(?:-|$)/;

/** Subcommands whose `-o` names a file or folder written (`-o x`, `-ox`). */
const SHORT_O = new Set(['format-patch', 'archive', 'index-pack', 'bugreport', 'diagnose', 'mailsplit']);

/** More long options whose value is written, by subcommand. */
const LONG_BY_SUB: Readonly<Record<string, readonly string[]>> = {
  'checkout-index': ['prefix'],
  config: ['file'],
  'credential-store': ['file'],
  apply: ['directory'],
  am: ['directory'],
  'credential-cache': ['socket'],
  daemon: ['pid-file'],
};
/** More short options whose value is written, by subcommand. */
const SHORT_BY_SUB: Readonly<Record<string, string>> = { config: 'f' };

/** Long options of `git clone` that take the next word, which is then no operand. */
const CLONE_VALUED =
  /^--(?:origin|branch|upload-pack|reference|reference-if-able|depth|shallow-since|shallow-exclude|config|template|server-option|filter|jobs|bundle-uri|ref-format|separate-git-dir)$/;
const CLONE_VALUED_SHORT = new Set(['-o', '-b', '-u', '-c', '-j']);

/** Subcommands that write each of their operands, or those after an action word. */
const OPERANDS_WRITTEN: Readonly<Record<string, readonly string[] | true>> = {
  init: true,
  'pack-objects': true,
  'merge-file': true,
  mailinfo: true,
  worktree: ['add', 'move', 'repair', 'remove'],
  bundle: ['create'],
};

// git's own options that take the next word.
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** Whether the long option `given` (without `--`) names `name`, whole or cut short. */
const names = (given: string, name: string): boolean => given.length > 0 && name.startsWith(given);

/** The values of the options of `args` that `sub` writes to. */
function optionWrites(sub: string, args: readonly string[]): string[] {
  const long = [...WRITTEN_LONG, ...(LONG_BY_SUB[sub] ?? [])];
  return optionValues(args, {
    long: (given) => !given.startsWith('no-') && (long.some((n) => names(given, n)) || WRITES_BY_NAME.test(given)),
    short: `${SHORT_O.has(sub) ? 'o' : ''}${SHORT_BY_SUB[sub] ?? ''}`,
    separateValue: (word) => !isOption(word),
  });
}

/** `git clone`'s operands after the repository: the folder it makes. */
function cloneTargets(args: readonly string[]): string[] {
  const plain: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      plain.push(...args.slice(i + 1));
      break;
    }
    if (CLONE_VALUED.test(a) || CLONE_VALUED_SHORT.has(a)) i++;
    else if (!isOption(a)) plain.push(a);
  }
  return plain.slice(1);
}

/** The subcommand of `git <args>` (after git's own options) and the words after it. */
export function gitSubcommand(args: readonly string[]): { sub: string | undefined; rest: readonly string[] } {
  let i = 0;
  while (i < args.length && isOption(args[i]!)) i += GIT_VALUED.has(args[i]!) ? 2 : 1;
  return { sub: args[i], rest: args.slice(i + 1) };
}

/** The files and folders `git <args>` writes through its arguments (see the module comment). */
export function gitWrites(args: readonly string[]): string[] {
  const { sub, rest } = gitSubcommand(args);
  if (sub === undefined) return [];
  const out = optionWrites(sub, rest);
  if (sub === 'clone') out.push(...cloneTargets(rest));
  // Scheduling maintenance writes the user's crontab or timer units: in the home folder.
  if (sub === 'maintenance' && /^(?:start|stop)$/.test(operands(rest)[0] ?? '')) out.push('~');
  const written = OPERANDS_WRITTEN[sub];
  if (written === true) out.push(...operands(rest));
  else if (written !== undefined) {
    const plain = operands(rest);
    if (written.includes(plain[0] ?? '')) out.push(...plain.slice(1));
  }
  return out;
}
