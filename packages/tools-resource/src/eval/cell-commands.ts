/**
 * The shell command lines an `eval` cell is equivalent to, for the session's `Bash(…)` rules
 * (`Tool.shellEquivalent`). A JavaScript cell is `node -e '<code>'` (the kernel has no shell
 * syntax). A Python cell is read as the kernel's `_rewrite` reads it (see
 * `python-kernel-source.ts`): a first line `%%bash` makes the rest of the cell one shell script; else
 * each line, after its leading whitespace, that starts with `%pip ` or `!pip ` is `pip …` (run as
 * `python3 -m pip …`), with `%cd ` is `cd …`, with `!` is a shell command line, and the other lines
 * are the Python code, `python3 -c '<code>'`. As in the kernel, a magic is a line of its own: a line
 * inside a triple-quoted string or brackets, after a line ending in a backslash, or starting with
 * `!=` is Python, not a command. Code calling the kernel's own helpers that start
 * processes or run code (`_sh`, `_pip`, `_timeit`, `_run`, or the kernel module `__main__` that
 * holds them) is preceded by their definitions, so the judge sees what they do. Leading whitespace is taken in a wider sense than Python's, so a line
 * the kernel runs as a shell command is never read as Python.
 */
import type { EvalLanguage } from './kernel-types.js';

/** A word quoted for a POSIX shell: `'…'`, each `'` written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

// Python's whitespace (`str.isspace`) and JavaScript's (`\s`), together.
const LEADING_SPACE = /^[\s\x1c-\x1f\x85]*/;
const SPACE = /[\s\x1c-\x1f\x85]*$/;
// Python's whitespace alone (`str.lstrip`), as the kernel strips a line.
const PY_LEADING_SPACE = /^[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/** The line starts the kernel rewrites (and does not scan) when a line is free. */
const KERNEL_MAGIC = /^(?:!|%pip |%cd |%timeit |%time |%matplotlib)/;

/** What the kernel carries from one line to the next: an open triple quote, brackets, a final backslash. */
interface LineState {
  quote: string | undefined;
  depth: number;
  cont: boolean;
}

/** The kernel's `_scan`: carries `state` over `line`. */
function scan(line: string, state: LineState): void {
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i]!;
    if (state.quote !== undefined) {
      if (c === '\\') i += 2;
      else if (line.startsWith(state.quote, i)) {
        state.quote = undefined;
        i += 3;
      } else i += 1;
      continue;
    }
    if (c === '#') break;
    if (c === '"' || c === "'") {
      if (line.startsWith(c.repeat(3), i)) {
        state.quote = c.repeat(3);
        i += 3;
        continue;
      }
      i += 1;
      while (i < n && line[i] !== c) i += line[i] === '\\' ? 2 : 1;
      i += 1;
      continue;
    }
    if ('([{'.includes(c)) state.depth += 1;
    else if (')]}'.includes(c)) state.depth = Math.max(0, state.depth - 1);
    i += 1;
  }
  state.cont = state.quote === undefined && line.endsWith('\\');
}

const KERNEL_HELPERS: readonly (readonly [RegExp, string])[] = [
  [/\b_sh\b/, "def _sh(cmd): subprocess.run(cmd, shell=True, executable='/bin/bash')"],
  [/\b_pip\b/, "def _pip(line): subprocess.run([sys.executable, '-m', 'pip'] + shlex.split(line))"],
  [/\b_timeit\b/, 'def _timeit(body, g): exec(body, g)'],
  [/\b_run\b/, 'def _run(code): exec(code, globals())'],
  // The kernel program itself, which holds all of the above and `subprocess`.
  [/\bimport\s+__main__|\bfrom\s+__main__\b|modules\b.*__main__/, 'import subprocess as __main__'],
];

/** `python3 -c '<code>'`, with the definitions of the kernel helpers the code uses before it. */
function pythonCommand(code: string): string {
  const names = code.normalize('NFKC');
  const helpers = KERNEL_HELPERS.filter(([uses]) => uses.test(names)).map(([, definition]) => definition);
  const program = helpers.length === 0 ? code : ['import shlex, subprocess, sys', ...helpers, code].join('\n');
  return `python3 -c ${shellQuote(program)}`;
}

/** The shell command lines of a Python cell (see the module comment). */
function pythonCell(code: string): string[] {
  const lines = code.split('\n');
  const first = (lines[0] ?? '').replace(LEADING_SPACE, '').replace(SPACE, '');
  if (first.startsWith('%%bash')) return [lines.slice(1).join('\n')];
  if (first.startsWith('%%timeit')) return [pythonCommand(lines.slice(1).join('\n'))];
  const commands: string[] = [];
  const python: string[] = [];
  const state: LineState = { quote: undefined, depth: 0, cont: false };
  for (const line of lines) {
    const rest = line.replace(LEADING_SPACE, '');
    const indent = line.slice(0, line.length - rest.length);
    const free = state.quote === undefined && state.depth === 0 && !state.cont;
    // The kernel carries the state over every line it does not rewrite as a magic (it strips
    // Python's narrower whitespace), so a line read here as a command may still carry it on.
    const pyRest = line.replace(PY_LEADING_SPACE, '');
    if (!(free && !pyRest.startsWith('!=') && KERNEL_MAGIC.test(pyRest))) scan(line, state);
    if (!free || rest.startsWith('!=')) {
      python.push(line);
      continue;
    }
    if (rest.startsWith('%pip ') || rest.startsWith('!pip ')) {
      const pipArgs = rest.slice(5);
      commands.push(`pip ${pipArgs}`, `python3 -m pip ${pipArgs}`);
    } else if (rest.startsWith('%cd ')) commands.push(`cd ${shellQuote(rest.slice(4).trim())}`);
    else if (rest.startsWith('!')) commands.push(rest.slice(1));
    else {
      python.push(line);
      continue;
    }
    python.push(`${indent}pass`);
  }
  return [pythonCommand(python.join('\n')), ...commands];
}

/** The shell command lines a cell of `language` is equivalent to (see the module comment). */
export function cellShellCommands(language: EvalLanguage, code: string): string[] {
  return language === 'javascript' ? [`node -e ${shellQuote(code)}`] : pythonCell(code);
}
