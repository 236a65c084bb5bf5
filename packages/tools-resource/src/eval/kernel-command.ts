/**
 * How a kernel starts: the interpreter of a language in a folder, and the command that runs the
 * kernel program under it (on the host under the subreaper wrapper, or wrapped by the sandbox).
 */
import { join } from 'node:path';
import { executable, onPath } from '../shared/path-lookup.js';
import { EvalToolError } from './eval-errors.js';
import { JS_KERNEL_SOURCE } from './js-kernel-source.js';
import type { EvalLanguage, KernelCommand } from './kernel-types.js';
import { asSubreaper } from '../shared/subreaper.js';
import { PYTHON_KERNEL_SOURCE } from './python-kernel-source.js';
import type { EvalSandbox } from './sandbox.js';

/**
 * The interpreter for a language in `cwd`. JavaScript: this Node. Python: the project's
 * `.venv/bin/python3` or `venv/bin/python3`, then the system `/usr/bin/python3`, then `python3`
 * on `PATH`.
 */
export function resolveInterpreter(language: EvalLanguage, cwd: string): string {
  if (language === 'javascript') return process.execPath;
  const candidates = [
    join(cwd, '.venv', 'bin', 'python3'),
    join(cwd, '.venv', 'bin', 'python'),
    join(cwd, 'venv', 'bin', 'python3'),
    join(cwd, 'venv', 'bin', 'python'),
    '/usr/bin/python3',
  ];
  const found = candidates.find(executable) ?? onPath('python3') ?? onPath('python');
  if (found === undefined)
    throw new EvalToolError(
      'EVAL_INTERPRETER',
      `no Python interpreter found: tried ${candidates.join(', ')} and python3 on PATH`,
      {
        candidates,
      },
    );
  return found;
}

/** The command that starts the kernel of `language` with `interpreter` in `cwd` (inside `sandbox` when there is one). */
export function commandFor(
  language: EvalLanguage,
  interpreter: string,
  cwd: string,
  sandbox: EvalSandbox | undefined,
  memoryMb: number | undefined,
): KernelCommand {
  const args =
    language === 'python'
      ? [
          '-u',
          '-c',
          PYTHON_KERNEL_SOURCE,
          String((memoryMb ?? 0) * 2 ** 20),
          sandbox === undefined ? 'host' : 'sandbox',
        ]
      : [...(memoryMb === undefined ? [] : [`--max-old-space-size=${memoryMb}`]), '-e', JS_KERNEL_SOURCE];
  const limit = memoryMb === undefined ? {} : { memoryLimitMb: memoryMb };
  // On the host both kernels start under the subreaper wrapper, which kills what their cells leave
  // behind when the host dies (a sandbox runs its own commands: the host's Python need not be there).
  const leader = sandbox === undefined ? asSubreaper(interpreter, args) : { command: interpreter, args };
  if (sandbox === undefined) return { language, command: leader.command, args: leader.args, cwd, ...limit };
  const wrapped = sandbox.wrap({ language, command: leader.command, args: leader.args, cwd });
  return {
    language,
    command: wrapped.command,
    args: [...wrapped.args],
    cwd: wrapped.cwd ?? cwd,
    ...(wrapped.env === undefined ? {} : { env: wrapped.env }),
    ...limit,
  };
}

/** The interpreter of each language inside a sandbox that names none. */
export const SANDBOX_INTERPRETERS: Readonly<Record<EvalLanguage, string>> = { python: 'python3', javascript: 'node' };
