/**
 * The shell command lines a `debug` call is equivalent to, for the session's `Bash(…)` rules
 * (`Tool.shellEquivalent`): a `launch` runs its program with its arguments through its adapter
 * (`python3 <file> …` under debugpy, `go build`/`go run` under delve, the program itself under
 * lldb), and an `evaluate` runs code inside the program being debugged. An expression of a Python
 * session (`adapter: 'debugpy'` named; the call is refused when the session runs another adapter)
 * is read as Python (`python3 -c '<expression>'`, as an `eval` cell is). Any other expression is
 * read as Python only when it merely reads (no call, no assignment): in C, C++, Go or Rust a call
 * can start a process by ways no list of names catches (a function looked up by a name built at
 * run time), so such an expression, like one that names what starts processes or loads code
 * (`system(`, `popen(`, `exec…(`, `dlopen(`, …), is `eval '<expression>'`, which the judge cannot
 * name, so it meets every deny and ask rule. Other operations run nothing.
 */
import { extname } from 'node:path';
import { shellQuote } from '../eval/cell-commands.js';
import { DebugToolError } from './debug-errors.js';

/** Calls that start processes or load code, in the languages the native and Go adapters debug. */
const NATIVE_RUNS =
  /\b(?:system|popen|_popen|fork|vfork|clone|posix_spawnp?|exec[lv]p?e?|execve|fexecve|dlopen|syscall|ptrace|StartProcess|ForkExec|Command(?:Context)?|Exec)\s*\(/;

/**
 * What a launch runs, by the adapter that runs it (the one named, else the one the program's kind
 * picks): debugpy runs `python3 <program>` whatever the file is called, delve builds the Go package
 * with the toolchain and runs it, dart runs `dart run`, lldb the program itself. A program without
 * an extension may be a Go package folder, which delve builds: it is judged as each.
 */
function launchCommands(program: string, args: readonly string[], adapter: string | undefined): string[] {
  const words = [program, ...args].map(shellQuote).join(' ');
  const go = [`go build ${shellQuote(program)}`, `go run ${words}`];
  const ext = extname(program.replace(/\/+$/, '')).toLowerCase();
  switch (adapter ?? { '.py': 'debugpy', '.go': 'delve', '.dart': 'dart' }[ext] ?? (ext === '' ? 'any' : 'lldb')) {
    case 'debugpy':
      return [`python3 ${words}`];
    case 'delve':
      return go;
    case 'dart':
      return [`dart run ${words}`];
    case 'lldb':
      return [words];
    default:
      return [words, ...go];
  }
}

/** What `debug` with these arguments runs, as shell command lines. */
export function debugShellCommands(args: {
  readonly op: string;
  readonly program?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly adapter?: string | undefined;
  readonly expression?: string | undefined;
}): string[] {
  if (args.op === 'launch' && args.program !== undefined)
    return launchCommands(args.program, args.args ?? [], args.adapter);
  if (args.op === 'evaluate' && args.expression !== undefined) {
    const text = args.expression.normalize('NFKC');
    // A comment between a name and its `(` still calls it (`system/**/(…)`).
    const bare = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    if (NATIVE_RUNS.test(text) || NATIVE_RUNS.test(bare) || (args.adapter !== 'debugpy' && !onlyReads(text)))
      return [`eval ${shellQuote(args.expression)}`];
    return [`python3 -c ${shellQuote(args.expression)}`];
  }
  return [];
}

/**
 * True for an expression that only reads, in any of the languages debugged: one line, no call
 * (`(` right after a name, a closing bracket or a quote; a cast's or a group's `(` follows an
 * operator), no assignment or increment, no block, no statement separator, no lldb command.
 */
export function onlyReads(text: string): boolean {
  // A comment can stand between a name and its `(` (`f/**/()`); nothing that only reads needs one.
  if (/[`;{}\n\r#]|\/\*|\/\//.test(text)) return false;
  // A call: `(` after a name, a closing bracket, a quote or a template's `>` (`run<int>(…)`).
  if (/[\p{L}\p{N}_$)\]'">]\s*\(/u.test(text)) return false;
  // Words that run code without brackets (`delete p`, delve's `call f`, Go's `go f`).
  if (
    /(?<![\p{L}\p{N}_$.])(?:delete|new|throw|call|go|defer|goto|asm|__asm__|co_await|co_yield)(?![\p{L}\p{N}_$])/u.test(
      text,
    )
  )
    return false;
  return !/<<=|>>=|(?<![=!<>])=(?!=)|\+\+|--/.test(text);
}

/**
 * Refuses an `evaluate` that names an adapter other than the session's: its expression was judged
 * as code of the adapter named, so it runs only in such a session.
 */
export function checkEvaluateAdapter<S extends { readonly adapter: { readonly id: string } }>(
  named: string | undefined,
  session: S,
): S {
  const running = session.adapter.id;
  if (named === undefined || named === running) return session;
  throw new DebugToolError(
    'DEBUG_ARGS',
    `evaluate names adapter '${named}', but the session runs '${running}'; name '${running}' or leave adapter out`,
    { op: 'evaluate', adapter: named, session_adapter: running },
  );
}
