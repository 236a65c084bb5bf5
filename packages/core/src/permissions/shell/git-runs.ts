/**
 * What a git subcommand runs besides git: `git submodule foreach 'cmd'`, `git rebase -x 'cmd'`,
 * `git bisect run cmd`, `git filter-branch --tree-filter 'cmd'`, `git difftool -x cmd`,
 * `git grep -O'cmd'`, `--upload-pack`/`--receive-pack`/`--exec` (run locally for a local remote,
 * also by `git fetch-pack`, `git send-pack` and `git ls-remote`), and `git send-email`'s
 * `--*-cmd`, their long names also cut short as git reads them: each is judged as the shell code
 * it is, so a rule on `rm` holds for `git submodule foreach 'rm -rf x'` as it does for `sh -c`. A repository made from a template
 * (hooks) or with settings that run programs (`git clone -c core.fsmonitor=…`), and a setting of
 * such a key (`git config alias.x '!…'`, run by a later `git x`), may run anything: opaque.
 */
import { mayBeOption } from './exec-options.js';
import { OPAQUE, isStatic, type ShellWord } from './shell-word.js';

/** Judges shell code (`null`: not known statically). */
export type JudgeCode = (code: string | null) => readonly string[];

// Options whose value is a command, per subcommand (`--opt value`, `--opt=value`, `-xvalue`).
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rebase: ['-x', '--exec'],
  'filter-branch': [
    '--tree-filter',
    '--index-filter',
    '--msg-filter',
    '--env-filter',
    '--commit-filter',
    '--tag-name-filter',
    '--parent-filter',
    '--setup',
  ],
  difftool: ['-x', '--extcmd'],
  mergetool: ['-x', '--extcmd'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  clone: ['-u', '--upload-pack'],
  'ls-remote': ['--upload-pack', '--exec'],
  'fetch-pack': ['--upload-pack', '--exec'],
  push: ['--receive-pack', '--exec'],
  'send-pack': ['--receive-pack', '--exec'],
  archive: ['--exec'],
  'send-email': ['--smtp-server', '--to-cmd', '--cc-cmd', '--sendmail-cmd', '--header-cmd'],
  daemon: ['--access-hook'],
};

// Options whose value, when attached, is a command run as a pager (`git grep -O'cmd'`).
const ATTACHED_ONLY: Readonly<Record<string, readonly string[]>> = { grep: ['-O', '--open-files-in-pager'] };

/**
 * The value of option `name` at `args[i]` and whether it took the next word, or `undefined`. A long
 * name may be cut short, as git reads it (`git push --ex=cmd` is `--exec=cmd`): any start of it
 * counts, even one git would find ambiguous.
 */
function optionAt(args: readonly ShellWord[], i: number, name: string, attachedOnly: boolean) {
  const w = args[i]!;
  const text = w.text;
  if (name.startsWith('--')) {
    if (!text.startsWith('--') || text.length <= 2) return undefined;
    const eq = text.indexOf('=');
    const given = eq === -1 ? text : text.slice(0, eq);
    if (given.length <= 2 || !name.startsWith(given)) return undefined;
    if (eq === -1) return attachedOnly ? undefined : { value: args[i + 1], next: true };
    const raw = text.slice(eq + 1);
    return { value: { ...w, text: raw, raw }, next: false };
  }
  if (text === name) return attachedOnly ? undefined : { value: args[i + 1], next: true };
  if (!text.startsWith(name) || text.length === name.length) return undefined;
  const raw = text.slice(name.length);
  return { value: { ...w, text: raw, raw }, next: false };
}

/** The subjects of what `git <sub> <rest>` runs besides git (see the module comment). */
export function gitRuns(sub: string, rest: readonly ShellWord[], judge: JudgeCode, codeKeys: RegExp): string[] {
  const code = (w: ShellWord | undefined): readonly string[] =>
    w === undefined ? [] : judge(isStatic(w) ? w.text : null);
  const joined = (words: readonly ShellWord[]): readonly string[] =>
    words.length === 0 ? [] : judge(words.every(isStatic) ? words.map((w) => w.text).join(' ') : null);
  if (sub === 'submodule') {
    const at = rest.findIndex((w) => w.text === 'foreach');
    if (at === -1) return [];
    let i = at + 1;
    while (i < rest.length && /^--?(?:recursive|quiet|q)$/.test(rest[i]!.text)) i++;
    return [...joined(rest.slice(i))];
  }
  if (sub === 'bisect') return rest[0]?.text === 'run' ? [...joined(rest.slice(1))] : [];
  // `git remote-ext <remote> <command>` runs its second word when asked to connect.
  if (sub === 'instaweb' || sub === 'remote-ext') return [OPAQUE];
  if ((sub === 'clone' || sub === 'init') && rest.some((_, i) => optionAt(rest, i, '--template', false) !== undefined))
    return [OPAQUE];
  if (sub === 'clone')
    for (let i = 0; i < rest.length; i++) {
      const setting = optionAt(rest, i, '-c', false) ?? optionAt(rest, i, '--config', false);
      if (setting === undefined) continue;
      const v = setting.value;
      if (v === undefined || !isStatic(v) || codeKeys.test(v.text.split('=')[0]!.trim())) return [OPAQUE];
    }
  if (sub === 'config') return configSets(rest, codeKeys) ? [OPAQUE] : [];
  // A word made at run time may be one of the options below (`git rebase "$O"`).
  if ((COMMAND_OPTIONS[sub] !== undefined || ATTACHED_ONLY[sub] !== undefined) && rest.some(mayBeOption))
    return [OPAQUE];
  const out: string[] = [];
  for (const [table, attachedOnly] of [
    [COMMAND_OPTIONS, false],
    [ATTACHED_ONLY, true],
  ] as const)
    for (const name of table[sub] ?? [])
      for (let i = 0; i < rest.length; i++) {
        const found = optionAt(rest, i, name, attachedOnly);
        if (found === undefined) continue;
        out.push(...code(found.value));
        if (found.next) i++;
      }
  return out;
}

// Flags of `git config` that read or remove, never set.
const CONFIG_READS =
  /^(?:--get(?:-all|-regexp|-urlmatch|-color|colorbool)?|--list|-l|--unset(?:-all)?|--remove-section|get|list|unset)$/;

/** True when `git config <rest>` may set a key git runs as a program (or one that cannot be read statically). */
function configSets(rest: readonly ShellWord[], codeKeys: RegExp): boolean {
  if (rest.some((w) => isStatic(w) && CONFIG_READS.test(w.text))) return false;
  // `--rename-section x alias` makes a section of such keys; any other word may be the key.
  return rest.some((w) => !isStatic(w) || codeKeys.test(w.text) || w.text === '--rename-section');
}
