/**
 * Judges one simple command: the subjects a rule pattern must see for it. Leading assignments
 * and wrappers (`env`, `sudo`, `timeout 5`, `xargs -0`, …) are unwrapped and the command name is
 * reduced to its basename, so `X=1 /bin/rm x` yields `rm x`; the command as written is a second
 * subject when it differs, so an allow rule must cover both. Shell bodies (`sh -c '…'`, `su -c`,
 * `watch`, `trap`, `alias` values, `find -exec`) are judged recursively. A command whose name
 * cannot be known statically yields `OPAQUE`.
 */
import { launcherName } from './launchers.js';
import { arithmeticReason, commandArithmeticRisk } from './arithmetic.js';
import { execOptionValues, mayBeOption } from './exec-options.js';
import { gitSubjects } from './git-command.js';
import { commandLanguageCode } from './command-languages.js';
import { interpreterIsOpaque, isShell, shellInvocation } from './interpreters.js';
import { npmSubjects } from './npm-command.js';
import { packageManagerOptionsAreOpaque } from './npm-options.js';
import { operandWrites } from './operand-writes.js';
import {
  assignmentName,
  basename,
  HOLE,
  isStatic,
  joinWords,
  OPAQUE,
  syntheticWord,
  type ShellWord,
} from './shell-word.js';
import { giveUp, MAX_SHELL_NESTING, TOO_DEEP } from './shell-scan.js';
import { assignmentSubjects } from './variables.js';
import { WRAPPERS, type Unwrap } from './wrappers.js';
import { linkScope } from './link-makers.js';
import { newCommand, noteLinkMaker, noteSecrets, noteWrites } from './line-facts.js';

/** How the judge recurses into shell code found inside a command. */
export interface JudgeContext {
  /** Nesting depth of the shell code being judged (0 for the command line itself). */
  readonly depth: number;
  /** Judges shell code at a depth; returns its subjects. */
  readonly judgeShell: (text: string, depth: number) => readonly string[];
  /** True when the command's input is given or piped (see `SimpleCommand.input`). */
  readonly input?: boolean;
  /** The number of the simple command in its line (see `line-facts.ts`). */
  readonly command?: number;
}

// Programs that, given their input instead of a terminal, read commands from it that may run
// others (`gdb ./a.out <<< 'shell cmd'`, `vim f <<< ':!cmd'`): opaque then.
const READS_COMMANDS = new Set(['gdb', 'lldb', 'vi', 'vim', 'nvim', 'view', 'vimdiff', 'rvim', 'ftp', 'telnet']);

const MAKES = new Set(['make', 'gmake']);

// Commands that run code not written on their command line.
const OPAQUE_BUILTINS = new Set(['eval', 'source', '.', 'fc']);
const MAX_UNWRAP = 32;
// Builtins whose `NAME=value` arguments set variables.
const DECLARING = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

interface Setting {
  readonly name: string;
  readonly value: string;
}

// A shell assignment word (`X=1`, `A[0]=x`, `P+=:/bin`): its name is written unquoted.
function shellSetting(word: ShellWord): Setting | undefined {
  const name = assignmentName(word);
  if (name === undefined) return undefined;
  return { name, value: word.text.slice(word.text.indexOf('=') + 1) };
}

// A `NAME=value` word as `env` and `export` read it, after quote removal; a name with a hole is unknown.
function envSetting(word: ShellWord): Setting | undefined {
  const eq = word.text.indexOf('=');
  if (eq <= 0) return undefined;
  const name = word.text
    .slice(0, eq)
    .replace(/\[[^\]]*\]$/, '')
    .replace(/\+$/, '');
  return { name: name.includes(HOLE) ? HOLE : name, value: word.text.slice(eq + 1) };
}

function settingSubjects(setting: Setting, context: JudgeContext): readonly string[] {
  if (setting.name === HOLE) return [OPAQUE];
  return assignmentSubjects(setting.name, setting.value, (code) => context.judgeShell(code, context.depth + 1));
}

/** The subjects of the simple command `words` (see the module comment). */
export function judgeSimpleCommand(line: readonly ShellWord[], context: JudgeContext): string[] {
  const arithmetic = commandArithmeticRisk(line.map((w) => w.raw));
  if (arithmetic !== undefined) {
    giveUp(arithmeticReason(arithmetic));
    return [OPAQUE, joinWords(line)];
  }
  noteSecrets(line.map((w) => w.text));
  const out: string[] = [];
  let words = line;
  // Whether the command is given variables (`CC=x make`, `env CC=x make`, `CC=x timeout 9 make`).
  let assigned = false;
  // Assignments lead a command, and may follow `time` (a keyword) or `env` (whose settings are any
  // words holding a `=`); after other wrappers they are skipped too, which can only find more to
  // deny. A variable that names a command or loads code adds what it runs (see `variables.ts`).
  const skipAssignments = (from: number, envStyle = false): number => {
    let i = from;
    for (; i < words.length; i++) {
      const setting = envStyle ? envSetting(words[i]!) : shellSetting(words[i]!);
      if (setting === undefined) break;
      assigned = true;
      out.push(...settingSubjects(setting, context));
    }
    return i;
  };
  let k = skipAssignments(0);
  if (k === words.length) return [...out, joinWords(line)];
  let moreArgs = false;
  let named = true;
  for (let step = 0; ; step++) {
    const word = words[k]!;
    if (step > MAX_UNWRAP || !isStatic(word) || word.splits) {
      named = false;
      out.push(OPAQUE);
      break;
    }
    const base = basename(word.text);
    if (OPAQUE_BUILTINS.has(base)) {
      out.push(OPAQUE);
      break;
    }
    const unwrap: Unwrap | undefined =
      WRAPPERS.get(launcherName(base))?.(words, k) ?? (isShell(base) ? shellInvocation(words, k) : undefined);
    if (unwrap === undefined) {
      // Words read at run time come after the line's own, where an option that runs code may stand.
      out.push(...innerCode(base, moreArgs ? [...words, syntheticWord(HOLE)] : words, k, context, assigned));
      break;
    }
    if (unwrap.kind === 'command') {
      if (unwrap.replace !== undefined) words = withHoles(words, unwrap.index, unwrap.replace);
      moreArgs ||= unwrap.moreArgs === true;
      k = skipAssignments(unwrap.index, unwrap.envAssignments === true);
      if (k === words.length) {
        // The command itself is among the words read at run time (`xargs env < list`).
        if (moreArgs) out.push(OPAQUE);
        named = false;
        break;
      }
      continue;
    }
    if (unwrap.kind === 'shell') out.push(...context.judgeShell(unwrap.body, context.depth + 1));
    // Given words read at run time, a wrapper or shell whose command or code is not on the line
    // takes it from them (`xargs sh -c < scripts`).
    if (unwrap.kind === 'opaque' || (unwrap.kind === 'none' && moreArgs)) out.push(OPAQUE);
    // A wrapper running no other command here (`npm test`) may still run code through its options.
    if (unwrap.kind === 'none') out.push(...innerCode(base, words, k, context, assigned));
    break;
  }
  if (named) {
    const rest = words.slice(k + 1).map((w) => w.text);
    const base = basename(words[k]!.text);
    out.push([base, ...rest, ...(moreArgs ? [HOLE] : [])].join(' '));
    if (base === 'npm') out.push(...npmSubjects(rest));
    // Words xargs appends may be files it writes too (`xargs rm`, `xargs cp -t ~/x`).
    const args = moreArgs ? [...words.slice(k + 1), syntheticWord(HOLE)] : words.slice(k + 1);
    const written = operandWrites(base, args);
    const by = context.command ?? newCommand();
    noteWrites(written, by);
    // A link it makes may take another command's write elsewhere (`git checkout l && echo > l/f`).
    const links = linkScope(base, moreArgs ? [...rest, HOLE] : rest);
    if (links !== undefined) noteLinkMaker(by, links, written);
  }
  out.push(joinWords(line));
  return [...new Set(out)];
}

// The words from `from` on with each of the strings `replace` standing for a word read at run time.
function withHoles(words: readonly ShellWord[], from: number, replace: readonly string[]): readonly ShellWord[] {
  return words.map((w, i) =>
    i < from || !replace.some((r) => w.text.includes(r))
      ? w
      : { ...w, text: replace.reduce((t, r) => t.replaceAll(r, HOLE), w.text) },
  );
}

// Code that the (unwrapped) command `base` at `words[at]` runs besides itself; `assigned` when
// it is given variables of its own.
function innerCode(
  base: string,
  words: readonly ShellWord[],
  at: number,
  context: JudgeContext,
  assigned: boolean,
): string[] {
  if (interpreterIsOpaque(base, words, at) === true) return [OPAQUE];
  if (context.input === true && READS_COMMANDS.has(base)) return [OPAQUE];
  // make takes any variable from its environment, which may name the program a recipe runs.
  if (assigned && MAKES.has(base)) return [OPAQUE];
  const args = words.slice(at + 1);
  if (packageManagerOptionsAreOpaque(base, args)) return [OPAQUE];
  const shell = (w: ShellWord | undefined): readonly string[] =>
    w === undefined ? [] : isStatic(w) ? context.judgeShell(w.text, context.depth + 1) : [OPAQUE];
  if (base === 'trap') {
    const action = args.find((w) => !(isStatic(w) && /^-[lp-]*$/.test(w.text)));
    return action === undefined || args.some((w) => isStatic(w) && /^-[lp]$/.test(w.text)) ? [] : [...shell(action)];
  }
  if (base === 'alias') {
    return args.flatMap((w) => {
      const eq = w.text.indexOf('=');
      if (eq === -1) return isStatic(w) ? [] : [OPAQUE];
      return [...shell(syntheticWord(w.text.slice(eq + 1)))];
    });
  }
  if (base === 'find') return findExec(args, context);
  if (Object.hasOwn(CALLBACKS, base)) return builtinCallback(base, args, shell);
  // `export GIT_PAGER='rm x'` (and `declare -x`…) sets what later commands run.
  if (DECLARING.has(base))
    return args.flatMap((w) => {
      const setting = envSetting(w);
      return setting === undefined ? [] : settingSubjects(setting, context);
    });
  if (base === 'git')
    return gitSubjects(args, (code) => (code === null ? [OPAQUE] : context.judgeShell(code, context.depth + 1)));
  const runs = [...execOptionValues(base, args), ...commandLanguageCode(base, args)];
  if (runs.length > 0)
    return runs.flatMap((code) => (code === null ? [OPAQUE] : context.judgeShell(code, context.depth + 1)));
  // `hash -p /bin/rm ls` makes `ls` run rm; `enable -f` loads a builtin from a shared object.
  if (
    (base === 'hash' && args.some((w) => /^-\w*p/.test(w.text))) ||
    (base === 'enable' && args.some((w) => /^-\w*f/.test(w.text)))
  )
    return [OPAQUE];
  return [];
}

// Builtins that run a command they are given: `mapfile -C 'cmd' -c 1 arr` (with an index and a
// line added, every `-c` lines read) and `compgen -C 'cmd' w` (to list its words); `compgen -F f`
// runs the shell function `f`, which cannot be read here.
const CALLBACKS: Readonly<Record<string, { readonly valued: string; readonly opaque: string }>> = {
  mapfile: { valued: 'dnOsuCc', opaque: '' },
  readarray: { valued: 'dnOsuCc', opaque: '' },
  compgen: { valued: 'oAGWFCXPS', opaque: 'F' },
};

// The code the builtin `base` runs from its `-C` option (see CALLBACKS); options end at the first
// operand, as for every builtin.
function builtinCallback(
  base: string,
  args: readonly ShellWord[],
  shell: (w: ShellWord | undefined) => readonly string[],
): string[] {
  const { valued, opaque } = CALLBACKS[base]!;
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!isStatic(w)) return w.text.startsWith(HOLE) || w.text.startsWith('-') ? [OPAQUE] : out;
    const t = w.text;
    if (t === '--' || !t.startsWith('-') || t === '-') break;
    for (let c = 1; c < t.length; c++) {
      if (!valued.includes(t[c]!)) continue;
      if (opaque.includes(t[c]!)) return [OPAQUE];
      const value = c + 1 < t.length ? syntheticWord(t.slice(c + 1)) : args[++i];
      if (t[c] === 'C') out.push(...(value === undefined ? [] : shell(value)));
      break;
    }
  }
  return out;
}

// The tests and actions of find that take the next word as their value.
const FIND_VALUED =
  /^-(?:i?name|i?path|i?wholename|i?regex|i?lname|x?type|[acm]?newer|newer[aBcmt][aBcmt]|user|group|uid|gid|perm|size|[acm]time|[acm]min|used|links|inum|samefile|fstype|maxdepth|mindepth|regextype|printf|fprint0?|fprintf|fls|context)$/;

// `find … -exec cmd {} ;` (and -execdir, -ok, -okdir) runs `cmd` with each found path; `-delete`
// removes each, as `rm` would (so `Bash(rm:*)` holds for it and `Bash(find:*)` alone does not cover it).
function findExec(args: readonly ShellWord[], context: JudgeContext): string[] {
  if (context.depth >= MAX_SHELL_NESTING) {
    giveUp(TOO_DEEP);
    return [OPAQUE];
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    // A word made at run time may be `-exec` or `-delete`, unless it is a test's value (`-name "$N"`).
    if (mayBeOption(args[i]!) && !(i > 0 && FIND_VALUED.test(args[i - 1]!.text))) out.push(OPAQUE);
    if (args[i]!.text === '-delete') out.push(`rm ${HOLE}`);
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i]!.text)) continue;
    const command: ShellWord[] = [];
    for (i++; i < args.length && !(isStatic(args[i]!) && (args[i]!.text === ';' || args[i]!.text === '+')); i++) {
      const w = args[i]!;
      if (!w.text.includes('{}')) command.push(w);
      else command.push({ ...w, text: w.text.replaceAll('{}', HOLE), foundPath: w.text === '{}' });
    }
    out.push(...judgeSimpleCommand(command, { ...context, depth: context.depth + 1, command: newCommand() }));
  }
  return out;
}
