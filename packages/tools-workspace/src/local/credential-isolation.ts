/**
 * Keeping the model's key from the processes the model starts. Commands go without the model
 * providers' credentials (`toolProcessEnv`), but the host process still has them: in its initial
 * environment (`/proc/<pid>/environ`, readable by every process of the same user, and so are those
 * of the shell and the terminal that started it) and in its memory. A command that can see the
 * host's processes can read the key there and send it away encoded, where output redaction cannot
 * see it. So while the host's initial environment (the one `/proc` shows) holds such a credential,
 * while a provider client of the host holds a key it was given in code (`holdCredentials`: its
 * memory, `/proc/<pid>/mem`, is readable where the same user may trace it), or always where the
 * host asks for it, each command (and each kernel
 * or program under debug) runs in the process and mount namespaces the workspace's commands share
 * (`shared-namespace.ts`): it sees its own and the other commands' processes, and a `/proc` of
 * their own, but none of the host's.
 *
 * Where namespaces cannot be made (not Linux, no Perl, a kernel or container that refuses user
 * namespaces), commands run as before; that is checked once per process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type ExecHiding, holdsCredentials, toolProcessEnv } from '@a3s-code/core';
import { hiddenProcess } from './hide-process.js';

/** Nothing to hide: with `isolate`, only the namespaces. */
export const NOTHING_HIDDEN: ExecHiding = Object.freeze({ unreadable: [], unwritable: [] });

let works: boolean | undefined;

/**
 * Whether a process can be started in namespaces of its own here: one wrapped `true`, run once
 * per process (about 10 ms, synchronously).
 */
export function isolationWorks(): boolean {
  if (works === undefined) {
    const wrapped = hiddenProcess({ command: '/bin/true', args: [] }, NOTHING_HIDDEN, true);
    works =
      wrapped !== undefined &&
      spawnSync(wrapped.command, wrapped.args, { stdio: 'ignore', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } })
        .status === 0;
  }
  return works;
}

/**
 * True when `env` (the host's) holds a variable that `kept` (the environment commands get) leaves
 * out, a model credential: then a command must not see the host's processes.
 */
export function withholdsCredentials(
  env: Readonly<Record<string, string | undefined>>,
  kept: Readonly<Record<string, string>>,
): boolean {
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value !== '' && !(name in kept)) return true;
  return false;
}

/** When commands run apart from the host: `auto` while it holds a model key (in its initial environment or its memory). */
export type IsolateCommands = boolean | 'auto';

let initial: Readonly<Record<string, string>> | null | undefined;

/**
 * The host's initial environment, as `/proc/self/environ` shows it to every process of the same
 * user (what `process.env` says later may differ), or `null` without `/proc`. Read once.
 */
export function initialEnvironment(): Readonly<Record<string, string>> | null {
  if (initial === undefined) {
    try {
      const pairs = readFileSync('/proc/self/environ', 'latin1').split('\0');
      const env: Record<string, string> = {};
      for (const pair of pairs) {
        const eq = pair.indexOf('=');
        if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      initial = env;
    } catch {
      initial = null;
    }
  }
  return initial;
}

/**
 * True when processes started now must run apart from the host's: always with `true`, never with
 * `false`, and with `auto` while the host's initial environment (the one other processes can read)
 * holds a model credential that commands go without, or while a provider client of this process
 * holds a key in its memory (core's `holdsCredentials`); in each case only where namespaces work.
 */
export function isolateForCredentials(mode: IsolateCommands, passEnv: readonly string[]): boolean {
  if (mode === false) return false;
  if (mode === 'auto' && !holdsCredentials(passEnv)) {
    const env = initialEnvironment();
    if (env === null || !withholdsCredentials(env, toolProcessEnv(env, passEnv))) return false;
  }
  return isolationWorks();
}

/**
 * What to tell the model about a failed command that ran apart from the host and asked for
 * privileges (`sudo`, `su`, `pkexec`): a user who is not root cannot gain them in the user
 * namespace it ran in. `undefined` otherwise.
 */
export function apartNote(
  command: string,
  exit: { readonly code: number | null },
  uid = process.getuid?.(),
): string | undefined {
  if (exit.code === 0 || uid === 0 || uid === undefined || !/(^|[\s;&|(`])(sudo|su|pkexec|doas)(\s|$)/.test(command))
    return undefined;
  return "[this command ran apart from the host's processes, because the host's environment holds a model key that commands must not read, so sudo and su cannot gain privileges in it: ask the person to run the privileged step, or the host can turn this off (LocalWorkspace isolateCommands: false)]";
}
