/**
 * The shell command lines a `debug` call is equivalent to, for the session's `Bash(…)` rules
 * (`Tool.shellEquivalent`): a `launch` runs its program with its arguments (`python3 <file> …` for a
 * `.py` file, the program itself otherwise), and an `evaluate` runs code inside the program being
 * debugged. An expression is read as Python (`python3 -c '<expression>'`, as an `eval` cell is);
 * one that calls what starts processes or loads code in C, C++, Go or Rust (`system(`, `popen(`,
 * `exec…(`, `fork(`, `exec.Command(`, `dlopen(`, …) cannot be judged and is `eval '<expression>'`,
 * which the judge cannot name, so it meets every deny and ask rule. Other operations run nothing.
 */
import { shellQuote } from '../eval/cell-commands.js';

/** Calls that start processes or load code, in the languages the native and Go adapters debug. */
const NATIVE_RUNS =
  /\b(?:system|popen|_popen|fork|vfork|clone|posix_spawnp?|exec[lv]p?e?|execve|fexecve|dlopen|syscall|ptrace|StartProcess|ForkExec|Command(?:Context)?|Exec)\s*\(/;

/** What `debug` with these arguments runs, as shell command lines. */
export function debugShellCommands(args: {
  readonly op: string;
  readonly program?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly expression?: string | undefined;
}): string[] {
  if (args.op === 'launch' && args.program !== undefined) {
    const words = [args.program, ...(args.args ?? [])].map(shellQuote).join(' ');
    return [args.program.toLowerCase().endsWith('.py') ? `python3 ${words}` : words];
  }
  if (args.op === 'evaluate' && args.expression !== undefined) {
    const text = args.expression.normalize('NFKC');
    if (NATIVE_RUNS.test(text)) return [`eval ${shellQuote(args.expression)}`];
    return [`python3 -c ${shellQuote(args.expression)}`];
  }
  return [];
}
