/**
 * Reading an awk command line (`awk`, `gawk`, `mawk`, `nawk`): its options, its program, and what
 * the program does besides reading its input. A program that starts processes (`system()`, `|`,
 * gawk's indirect `@f()` calls, `@load`, `@include`), or is read from a file (`-f`, `-E`, `-i`,
 * mawk's `-W exec`), cannot be judged: it is opaque. Its output redirections (`print > "f"`,
 * `printf … >> "f"`) write files: one to a string written out is a write of that file, one to a
 * name computed at run time (`print > f`, `print > $1 ".txt"`) may write anywhere, so the program
 * is opaque too. So are gawk's `-d`, `-o`, `-p` files, written where their value says.
 */
import { isStatic, type ShellWord } from './shell-word.js';

/** What an awk command line does beyond reading: opaque, or the files it writes. */
export type AwkReading =
  | { readonly opaque: true; readonly why: string }
  | { readonly opaque: false; readonly writes: readonly string[] };

const opaque = (why: string): AwkReading => ({ opaque: true, why });

// Short options without a value; with one (attached or the next word); with an optional attached one.
const FLAGS = 'bcCghIkMnNOPrsStV';
const VALUED = 'FveW';
const OPTIONAL = 'dDopL';
const FROM_FILE = 'fEilD';
// gawk's files written by an option, and the name each takes when the option has no value.
const WRITTEN: Readonly<Record<string, string>> = {
  d: 'awkvars.out',
  'dump-variables': 'awkvars.out',
  o: 'awkprof.out',
  'pretty-print': 'awkprof.out',
  p: 'awkprof.out',
  profile: 'awkprof.out',
};
const LONG_VALUED = new Set(['field-separator', 'assign', 'source']);
const LONG_FROM_FILE = new Set(['file', 'exec', 'include', 'load', 'debug']);
const LONG_FLAGS = new Set([
  'characters-as-bytes',
  'traditional',
  'copyright',
  'gen-pot',
  'help',
  'usage',
  'trace',
  'csv',
  'bignum',
  'use-lc-numeric',
  'non-decimal-data',
  'optimize',
  'no-optimize',
  'posix',
  're-interval',
  'sandbox',
  'lint',
  'lint-old',
  'version',
]);
// mawk's `-W` settings that read no program from elsewhere.
const W_SAFE = /^(?:version|interactive|usage|help|posix_space)$/;

const SETTING = /^-(?:[Fv]|-(?:assign|field-separator)=)/;
// A value word the judge can take: fully static, or (for a setting) one that stays one word.
const settingWord = (w: ShellWord, code: boolean): boolean => isStatic(w) || (!code && !w.splits);

/** Reads an awk command line (`args`: the words after the command name); see the module comment. */
export function readAwk(args: readonly ShellWord[]): AwkReading {
  const programs: string[] = [];
  const writes: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    // A field separator or a variable's value may be computed (`-v dir="$D"`), not the option itself.
    if (!isStatic(w) && (w.splits || !SETTING.test(t))) return opaque('an argument is computed at run time');
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-' || !t.startsWith('-')) break;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = t.slice(2, eq === -1 ? undefined : eq);
      const value = eq === -1 ? undefined : t.slice(eq + 1);
      if (LONG_FROM_FILE.has(name)) return opaque(`its program or an extension is read from a file (--${name})`);
      const file = WRITTEN[name];
      if (file !== undefined) writes.push(value ?? file);
      else if (LONG_VALUED.has(name)) {
        const v = value ?? args[++i];
        const text = typeof v === 'string' ? v : v?.text;
        if (text === undefined || (typeof v !== 'string' && !settingWord(v!, name === 'source')))
          return opaque(`--${name} has no readable value`);
        if (name === 'source') programs.push(text);
      } else if (!LONG_FLAGS.has(name)) return opaque(`it has an option the judge does not know (--${name})`);
      continue;
    }
    for (let c = 1; c < t.length; c++) {
      const letter = t[c]!;
      const rest = t.slice(c + 1);
      if (FROM_FILE.includes(letter)) return opaque(`its program or an extension is read from a file (-${letter})`);
      if (OPTIONAL.includes(letter)) {
        const file = WRITTEN[letter];
        if (file !== undefined) writes.push(rest === '' ? file : rest);
        break;
      }
      if (VALUED.includes(letter)) {
        const next = rest === '' ? args[++i] : undefined;
        if (next !== undefined && !settingWord(next, !'Fv'.includes(letter)))
          return opaque(`-${letter} has a value computed at run time`);
        const v = rest === '' ? next?.text : rest;
        if (v === undefined) return opaque(`-${letter} has no value`);
        if (letter === 'e') programs.push(v);
        if (letter === 'W' && !W_SAFE.test(v)) return opaque(`-W ${v} may read its program from a file`);
        break;
      }
      if (!FLAGS.includes(letter)) return opaque(`it has an option the judge does not know (-${letter})`);
    }
  }
  if (programs.length === 0) {
    const program = args[i];
    if (program === undefined) return { opaque: false, writes };
    if (!isStatic(program)) return opaque('its program is computed at run time');
    programs.push(program.text);
  }
  for (const program of programs) {
    const read = awkProgramWrites(program);
    if (typeof read === 'string') return opaque(read);
    writes.push(...read);
  }
  return { opaque: false, writes };
}

/**
 * The files an awk program's output redirections write, or why it cannot be judged. The program
 * is lexed twice, once reading `/…/` as a regular expression where an operand may stand and once
 * never, so a slash read the wrong way cannot hide a `print > file` from both.
 */
export function awkProgramWrites(program: string): string[] | string {
  if (/\bsystem\b|\|/.test(program)) return 'its program may run commands (system() or a pipe)';
  // gawk's indirect call `@name(…)`, `@load`, `@include`, `@namespace` (an `@` in a string or a
  // regular expression, as in `/@example.com/`, is none of them).
  if (/@\s*\w+\s*\(|@\s*(?:load|include|namespace)\b/.test(program))
    return 'its program calls a function by name or loads code (@…)';
  if (!program.includes('>')) return [];
  const aware = redirections(program, true);
  if (typeof aware === 'string') return aware;
  const naive = redirections(program, false);
  if (typeof naive === 'string') return naive;
  return [...new Set([...aware, ...naive])];
}

// Keywords after which an operand (so a regular expression) may stand.
const BEFORE_OPERAND = new Set(['print', 'printf', 'return', 'else', 'do', 'in', 'case', 'exit', 'BEGIN', 'END']);
const CONTROL = new Set(['if', 'while', 'for']);
const WORD = /[A-Za-z_0-9.]+/y;
// Tokens after which a newline does not end a statement.
const CONTINUES = new Set([',', '&&', '?', ':', '(', '{']);

// One lexing of `program` (see `awkProgramWrites`).
function redirections(program: string, regexes: boolean): string[] | string {
  const out: string[] = [];
  const n = program.length;
  const parens: boolean[] = [];
  let operand = false;
  let control = false;
  let last = '';
  // The nesting depth of the print statement being read, or -1.
  let print = -1;
  let i = 0;
  const quoted = (close: string): string | undefined => {
    const start = i;
    for (i++; i < n; i++) {
      if (program[i] === '\\') i++;
      else if (program[i] === '\n') return undefined;
      else if (program[i] === close) {
        i++;
        return program.slice(start + 1, i - 1);
      }
    }
    return undefined;
  };
  const blanks = () => {
    while (i < n && (program[i] === ' ' || program[i] === '\t' || program.startsWith('\\\n', i)))
      i += program[i] === '\\' ? 2 : 1;
  };
  while (i < n) {
    const ch = program[i]!;
    if (ch === ' ' || ch === '\t' || program.startsWith('\\\n', i)) {
      blanks();
      continue;
    }
    if (ch === '#') {
      while (i < n && program[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n' || ch === ';' || ch === '}') {
      if (ch !== '\n' || (!CONTINUES.has(last) && parens.length <= print)) print = -1;
      if (ch !== '\n' || !CONTINUES.has(last)) last = ch;
      operand = false;
      i++;
      continue;
    }
    if (ch === '"') {
      if (quoted('"') === undefined) return 'its program has a string that does not end on its line';
      operand = true;
      last = '"';
      continue;
    }
    if (ch === '/' && regexes && !operand) {
      const start = i;
      if (quoted('/') === undefined) return 'its program has a regular expression that does not end on its line';
      // gawk reads on past a slash inside `[…]`; other awks end the expression there.
      const body = program.slice(start + 1, i - 1);
      const open = body.lastIndexOf('[');
      if (open !== -1 && !body.slice(open + 2).includes(']'))
        return 'its program has a slash inside a bracket expression';
      operand = true;
      last = '/';
      continue;
    }
    if (/[A-Za-z_0-9.]/.test(ch)) {
      WORD.lastIndex = i;
      const word = WORD.exec(program)![0];
      i += word.length;
      if (word === 'print' || word === 'printf') print = parens.length;
      control = CONTROL.has(word);
      operand = !BEFORE_OPERAND.has(word) && !control;
      last = word;
      continue;
    }
    if (ch === '>' && print === parens.length) {
      if (program[i + 1] === '=') return 'its program has a print statement with `>=`';
      i += program[i + 1] === '>' ? 2 : 1;
      blanks();
      if (program[i] !== '"') return 'its program writes to a file whose name is computed at run time';
      const name = quoted('"');
      if (name === undefined || name.includes('\\') || name === '')
        return 'its program writes to a file whose name it cannot read';
      blanks();
      if (i < n && !/[;\n}#]/.test(program[i]!))
        return 'its program writes to a file whose name is computed at run time';
      out.push(name);
      operand = true;
      last = '"';
      continue;
    }
    const two = program.slice(i, i + 2);
    if (ch === '(' || ch === '[') {
      parens.push(ch === '(' && control);
      operand = false;
    } else if (ch === ')' || ch === ']') {
      if (parens.length <= print) print = -1;
      // After the condition of `if`, `while` or `for` a statement starts: `/` opens a regular expression.
      operand = parens.pop() !== true;
    } else if (two !== '++' && two !== '--') operand = false;
    control = false;
    last = two === '&&' || two === '++' || two === '--' ? two : ch;
    i += last.length;
  }
  return out;
}
