/**
 * Options spelled another way. A deny or ask command rule that names options (`Bash(rm -rf *)`)
 * must hold for every spelling of the same command: the options in another order, clustered or
 * apart (`rm -fr /`, `rm -r -f /`, `rm / -rf`), by their long names for the commands below
 * (`rm --recursive --force /`), `-R` for `-r` where they mean the same, a long name cut short
 * as GNU and git read it (`rm --rec --forc /`), and what a git refspec says (`git push origin +main`
 * forces, `:main` deletes). Such a rule matches a command whose words other
 * than options match the rule's words other than options, and whose options include every option
 * the rule names. A word computed at run time where an option may stand could be any option.
 *
 * Only deny and ask rules read commands this way (it can only make them match more); an allow
 * rule still matches the command as written.
 */
import { compileGlobAutomaton, globMayMatch, type GlobAutomaton } from '../glob-match.js';
import { HOLE } from './shell-word.js';

/** A command rule that names options, split into its other words and its options. */
export interface OptionRule {
  /** The rule's words other than options, as a glob automaton (`rm *`). */
  readonly words: GlobAutomaton;
  /** The options the rule names, each in its one spelling (`-r`, `-f`). */
  readonly options: readonly string[];
}

// Long names and other spellings of options, by command (or command and subcommand); each maps
// to the options it stands for.
const ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  rm: { '-R': ['-r'], '--recursive': ['-r'], '--force': ['-f'], '--dir': ['-d'] },
  cp: { '-R': ['-r'], '--recursive': ['-r'], '--force': ['-f'], '--archive': ['-a'] },
  mv: { '--force': ['-f'] },
  ln: { '--force': ['-f'], '--symbolic': ['-s'] },
  chmod: { '--recursive': ['-R'] },
  chown: { '--recursive': ['-R'] },
  chgrp: { '--recursive': ['-R'] },
  shred: { '--remove': ['-u'], '--zero': ['-z'] },
  sed: { '--in-place': ['-i'] },
  curl: { '--insecure': ['-k'], '--output': ['-o'], '--upload-file': ['-T'], '--request': ['-X'], '--data': ['-d'] },
  kill: { '-KILL': ['-9'], '-SIGKILL': ['-9'] },
  pkill: { '-KILL': ['-9'], '-SIGKILL': ['-9'] },
  killall: { '-KILL': ['-9'], '-SIGKILL': ['-9'] },
  npm: { '--force': ['-f'], '--global': ['-g'] },
  'git push': { '--force': ['-f'], '--delete': ['-d'], '--mirror': ['--mirror', '-f'] },
  'git clean': { '--force': ['-f'], '--dry-run': ['-n'] },
  'git branch': { '-D': ['-d', '-f'], '--delete': ['-d'], '--force': ['-f'] },
  'git checkout': { '--force': ['-f'] },
  'git switch': { '--force': ['-f'], '--discard-changes': ['-f'] },
  'git commit': { '--no-verify': ['-n'], '--all': ['-a'] },
  'git tag': { '--delete': ['-d'], '--force': ['-f'] },
  'git stash': { '--include-untracked': ['-u'], '--message': ['-m'], '--all': ['-a'], '--keep-index': ['-k'] },
  'git worktree': { '--force': ['-f'] },
  'git diff': { '--staged': ['--cached'] },
};

// Commands whose options are words of their own (`find -delete`, `kill -KILL`), never letters run together.
const WHOLE_WORD = new Set(['find', 'kill', 'pkill', 'killall', 'java', 'go']);

// Commands whose first operand is a subcommand with options of its own.
const SUBCOMMANDS = new Set(['git', 'npm']);

const isOptionWord = (w: string): boolean => w.length > 1 && w.startsWith('-') && w !== '--';

/** The command (and subcommand) an option table is looked up by: `rm`, `git push`. */
function commandKey(words: readonly string[]): string {
  const plain = words.filter((w) => !isOptionWord(w));
  const name = (plain[0] ?? '').slice((plain[0] ?? '').lastIndexOf('/') + 1);
  return SUBCOMMANDS.has(name) && plain[1] !== undefined ? `${name} ${plain[1]}` : name;
}

function aliasesOf(key: string): Readonly<Record<string, readonly string[]>> {
  return ALIASES[key] ?? ALIASES[key.split(' ')[0]!] ?? {};
}

/** The options one option word stands for, each in its one spelling. */
function optionsOfWord(word: string, key: string, known: readonly string[]): string[] {
  const aliases = aliasesOf(key);
  const name = word.startsWith('--') ? word.replace(/=.*$/s, '') : word;
  const direct = aliases[name];
  if (direct !== undefined) return [...direct];
  if (name.startsWith('--')) {
    // A long name cut short (`--rec`) stands for each known long name it begins, unless it is one itself.
    if (name.length < 3 || known.includes(name)) return [name];
    const longer = known.filter((k) => k.startsWith(name));
    return [name, ...longer.flatMap((k) => aliases[k] ?? [k])];
  }
  if (WHOLE_WORD.has(key.split(' ')[0]!)) return [name];
  return [...name.slice(1)].map((c) => aliases[`-${c}`]?.[0] ?? `-${c}`);
}

/**
 * The option rule of a command rule pattern (`rm -rf *`, `git push --force:*`), or `undefined`
 * when the pattern names no option or spells one with a wildcard (it then matches as written only).
 */
export function optionRuleOf(pattern: string): OptionRule | undefined {
  const prefix = pattern.endsWith(':*');
  const words = (prefix ? pattern.slice(0, -2) : pattern).split(' ').filter((w) => w.length > 0);
  const optionWords = words.filter(isOptionWord);
  if (optionWords.length === 0 || words.includes('--') || optionWords.some((w) => /[*?]/.test(w))) return undefined;
  const key = commandKey(words);
  const options = new Set(optionWords.flatMap((w) => optionsOfWord(w, key, [])));
  const rest = words.filter((w) => !isOptionWord(w));
  if (rest.length === 0) return undefined;
  const glob = `${rest.join(' ')}${prefix ? ' *' : ''}`;
  return { words: compileGlobAutomaton(glob, true), options: [...options] };
}

/** True when some value of `subject`'s holes is a spelling of a command `rule` covers. */
export function optionRuleMayMatch(rule: OptionRule, subject: string): boolean {
  const words = subject.split(' ').filter((w) => w.length > 0);
  const end = words.indexOf('--');
  const before = end === -1 ? words : words.slice(0, end);
  const key = commandKey(before);
  const known = Object.keys(aliasesOf(key)).concat(rule.options.filter((o) => o.startsWith('--')));
  const given = new Set<string>();
  // A word computed at run time where an option may stand could be any option.
  let anyOption = false;
  const plain: string[] = [];
  for (const w of before) {
    if (w.startsWith(HOLE) || (isOptionWord(w) && w.includes(HOLE))) anyOption = true;
    if (isOptionWord(w)) for (const o of optionsOfWord(w, key, known)) given.add(o);
    else plain.push(w);
    // A refspec is a force push when it starts with `+`, and deletes the ref when its source is empty.
    if (key === 'git push' && /^\+./.test(w)) given.add('-f');
    if (key === 'git push' && /^:./.test(w)) given.add('-d');
  }
  if (!anyOption && !rule.options.every((o) => given.has(o))) return false;
  const operands = end === -1 ? plain : plain.concat(words.slice(end + 1));
  return globMayMatch(rule.words, operands.join(' '));
}
