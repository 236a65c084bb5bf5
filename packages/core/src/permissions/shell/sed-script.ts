/**
 * Reading a sed command line as GNU sed does: its scripts (the first operand, or each `-e`), and
 * in each script the commands that start processes (`e`, the `s///e` flag) and the files it
 * writes (`w file`, `W file`, the `s///w file` flag). A script read from a file (`-f`), a word
 * computed at run time or an option this module does not know cannot be read: the caller fails
 * closed on it.
 */
import { HOLE, isStatic, type ShellWord } from './shell-word.js';

/** What a sed command line's options and scripts are, when they can be read. */
export interface SedArguments {
  /** The scripts given on the line (`-e`, `--expression`, or the first operand). */
  readonly scripts: readonly string[];
  /** True when a script is read from a file (`-f`, `--file`): it cannot be read here. */
  readonly fromFile: boolean;
  /** True with `--sandbox`: sed then refuses the `e`, `r` and `w` commands. */
  readonly sandbox: boolean;
  /**
   * The first word computed at run time that may be an option (`"$x"` may be `-ee cmd`, a word
   * xargs adds may be `-fscript`): what the line runs and writes then cannot be known from its text.
   */
  readonly hiddenOption?: ShellWord;
}

const SED_FLAGS = 'nErsuzb';
const SED_LONG_FLAGS = new Set([
  'quiet',
  'silent',
  'regexp-extended',
  'separate',
  'unbuffered',
  'null-data',
  'zero-terminated',
  'binary',
  'posix',
  'debug',
  'follow-symlinks',
  'help',
  'version',
]);

function splitLong(option: string): [string, string | undefined] {
  const eq = option.indexOf('=');
  return eq === -1 ? [option.slice(2), undefined] : [option.slice(2, eq), option.slice(eq + 1)];
}

/**
 * Reads `sed [options] script [file…]` and `sed -e script… [file…]` (`args`: the words after the
 * command name) as GNU sed does, options anywhere among the operands (`sed p -e 'e cmd' f` runs
 * `cmd`: `p` is then a file); `undefined` when an option is unknown or is computed at run time.
 */
export function readSedArguments(args: readonly ShellWord[]): SedArguments | undefined {
  const scripts: string[] = [];
  const operands: ShellWord[] = [];
  let fromFile = false;
  let sandbox = false;
  let hiddenOption: ShellWord | undefined;
  const staticText = (w: ShellWord | undefined): string | null => (w !== undefined && isStatic(w) ? w.text : null);
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (!isStatic(w)) {
      if (t.startsWith('-')) return undefined;
      if (t.startsWith(HOLE) && w.foundPath !== true) hiddenOption ??= w;
      operands.push(w);
      continue;
    }
    if (t === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (t.startsWith('--')) {
      const [name, value] = splitLong(t);
      if (name === 'sandbox') sandbox = true;
      else if (name === 'expression' || name === 'file' || name === 'line-length') {
        const v = value ?? staticText(args[++i]);
        if (v === null) return undefined;
        if (name === 'expression') scripts.push(v);
        if (name === 'file') fromFile = true;
      } else if (name !== 'in-place' && !SED_LONG_FLAGS.has(name)) return undefined;
      continue;
    }
    if (!t.startsWith('-') || t === '-') {
      operands.push(w);
      continue;
    }
    for (let c = 1; c < t.length; c++) {
      const letter = t[c]!;
      if (letter === 'i') break;
      if (letter === 'e' || letter === 'f' || letter === 'l') {
        const v = c + 1 < t.length ? t.slice(c + 1) : staticText(args[++i]);
        if (v === null) return undefined;
        if (letter === 'e') scripts.push(v);
        if (letter === 'f') fromFile = true;
        break;
      }
      if (!SED_FLAGS.includes(letter)) return undefined;
    }
  }
  if (scripts.length === 0 && !fromFile) {
    const script = operands[0];
    if (script !== undefined) {
      if (!isStatic(script)) return undefined;
      scripts.push(script.text);
    }
  }
  return { scripts, fromFile, sandbox, ...(hiddenOption === undefined ? {} : { hiddenOption }) };
}

/** What a sed script does besides editing its input. */
export interface SedScriptFacts {
  /** True when it runs a command (`e`, an `s` with the `e` flag), or cannot be read. */
  readonly runs: boolean;
  /** The files its `w` and `W` commands and `s///w` flags write, as written. */
  readonly writes: readonly string[];
}

/**
 * Reads a sed script the way GNU sed does: addresses, then one command letter and its arguments,
 * commands separated by `;` or newlines. A file name (`w`, `W`, `r`, `R`, the `w` flag) runs to
 * the end of the line, a backslash included; text (`a`, `i`, `c`) continues past an escaped newline.
 */
export function readSedScript(script: string): SedScriptFacts {
  const writes: string[] = [];
  const unreadable: SedScriptFacts = { runs: true, writes };
  let i = 0;
  const n = script.length;
  const skip = (set: RegExp) => {
    while (i < n && set.test(script[i]!)) i++;
  };
  // Skips a delimited part (`/re/`, `s` fields): true when its closing delimiter was found. In a
  // regular expression (`regex`), a bracket expression (`[/]`, `[]/]`, `[[:alpha:]/]`) holds the
  // delimiter as a character, as GNU sed reads it.
  const delimited = (delim: string, regex = false): boolean => {
    for (; i < n; i++) {
      if (script[i] === '\\') i++;
      else if (regex && script[i] === '[') {
        const close = bracketEnd(script, i);
        if (close < 0) return false;
        i = close;
      } else if (script[i] === delim) {
        i++;
        return true;
      } else if (script[i] === '\n' && delim !== '\n') return false;
    }
    return false;
  };
  const textToLineEnd = () => {
    while (i < n && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
  };
  // A file name: leading blanks skipped, then everything up to the newline.
  const fileName = (): string => {
    skip(/[ \t]/);
    const end = script.indexOf('\n', i);
    const name = script.slice(i, end === -1 ? n : end);
    i = end === -1 ? n : end;
    return name;
  };
  const address = (): boolean => {
    if (script[i] === '/') {
      i++;
      if (!delimited('/', true)) return false;
      skip(/[IM]/);
    } else if (script[i] === '\\') {
      const delim = script[i + 1];
      if (delim === undefined) return false;
      i += 2;
      if (!delimited(delim, true)) return false;
      skip(/[IM]/);
    } else if (script[i] === '$') i++;
    else if (/[0-9]/.test(script[i] ?? '')) skip(/[0-9~]/);
    return true;
  };
  while (i < n) {
    skip(/[\s;}]/);
    if (i >= n) break;
    if (script[i] === '#') {
      // A comment ends at the end of its line, a backslash before it or not.
      const end = script.indexOf('\n', i);
      i = end === -1 ? n : end;
      continue;
    }
    if (!address()) return unreadable;
    skip(/[ \t]/);
    if (script[i] === ',') {
      i++;
      skip(/[ \t]/);
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return unreadable;
    }
    skip(/[ \t!]/);
    const command = script[i++];
    if (command === undefined) return unreadable;
    if (command === '{') continue;
    if (command === 'e') return unreadable;
    if (command === 's' || command === 'y') {
      const delim = script[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') return unreadable;
      if (!delimited(delim, command === 's') || !delimited(delim)) return unreadable;
      if (command === 'y') continue;
      while (i < n && /[gpiImMe0-9w]/.test(script[i]!)) {
        if (script[i] === 'e') return unreadable;
        if (script[i] === 'w') {
          i++;
          writes.push(fileName());
          break;
        }
        i++;
      }
      continue;
    }
    if ('wWrR'.includes(command)) {
      const name = fileName();
      if (command === 'w' || command === 'W') writes.push(name);
      continue;
    }
    if ('aic'.includes(command)) {
      textToLineEnd();
      continue;
    }
    if (':bTtv'.includes(command)) {
      // A label (a version for `v`): after blanks, up to a blank, `;`, `}` or the end of the line
      // (GNU sed 4.9 ends it at a blank too: `:a e cmd` runs `cmd`). Ending it earlier than some
      // sed would is safe: the rest is then read as commands.
      skip(/[ \t]/);
      while (i < n && !/[\s;}]/.test(script[i]!)) i++;
      continue;
    }
    if ('qQlL'.includes(command)) {
      skip(/[ \t0-9]/);
      continue;
    }
    if (!'=dDgGhHnNpPxzF'.includes(command)) return unreadable;
  }
  return { runs: false, writes };
}

/**
 * The index of the `]` that closes the bracket expression opening at `at` (`[` in `s`), or -1: a
 * `]` first (after `^`) is a member, and `[:class:]`, `[=c=]`, `[.c.]` are read whole.
 */
function bracketEnd(s: string, at: number): number {
  let i = at + 1;
  if (s[i] === '^') i++;
  if (s[i] === ']') i++;
  for (; i < s.length; i++) {
    if (s[i] === '\n') return -1;
    if (s[i] === '[' && (s[i + 1] === ':' || s[i + 1] === '=' || s[i + 1] === '.')) {
      const close = s.indexOf(`${s[i + 1]}]`, i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (s[i] === ']') return i;
  }
  return -1;
}

/** True when a sed script runs a command (`e`, or an `s` with the `e` flag), or cannot be read. */
export function sedRunsCommands(script: string): boolean {
  return readSedScript(script).runs;
}

/**
 * The files a sed command line (`args`: the words after the command name) writes through its
 * scripts (`w`, `W`, the `s///w` flag), as written; a hole when a script cannot be read (`-f`, a
 * word computed at run time), as it may write anywhere.
 */
export function sedScriptWrites(args: readonly ShellWord[]): string[] {
  const read = readSedArguments(args);
  if (read === undefined || (read.fromFile && !read.sandbox)) return [HOLE];
  const writes = read.scripts.flatMap((s) => readSedScript(s).writes);
  if (read.hiddenOption !== undefined) return [HOLE, ...writes];
  return read.sandbox ? [] : writes;
}
