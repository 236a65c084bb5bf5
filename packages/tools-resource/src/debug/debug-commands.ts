/**
 * The shell command lines a `debug` call is equivalent to, for the session's `Bash(…)` rules
 * (`Tool.shellEquivalent`): a `launch` runs its program with its arguments through its adapter
 * (`python3 <file> …` under debugpy, `go build`/`go run` under delve, the program itself under
 * lldb), and an `evaluate` runs code inside the program being
 * debugged. An expression is read as Python (`python3 -c '<expression>'`, as an `eval` cell is);
 * one that calls what starts processes or loads code in C, C++, Go or Rust (`system(`, `popen(`,
 * `exec…(`, `fork(`, `exec.Command(`, `dlopen(`, …) cannot be judged and is `eval '<expression>'`,
 * which the judge cannot name, so it meets every deny and ask rule. Other operations run nothing.
 */
import { extname } from 'node:path';
import { shellQuote } from '../eval/cell-commands.js';

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
    if (NATIVE_RUNS.test(text)) return [`eval ${shellQuote(args.expression)}`];
    return [`python3 -c ${shellQuote(args.expression)}`];
  }
  return [];
}
