// Drives a command through a pseudo-terminal with util-linux `script -qfec` (no native module):
// the child sees a TTY on stdin and stdout, so readline runs in terminal mode and Ctrl-C is a key.
import { spawn, type ChildProcess } from 'node:child_process';

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][0-9A-Za-z]|\r/g;

/** A command running in a pseudo-terminal. */
export interface Pty {
  /** Everything printed so far, without colour codes or carriage returns. */
  readonly text: () => string;
  /** Types keys (use `\r` for Enter, `\u0003` for Ctrl-C). */
  readonly type: (keys: string) => void;
  /** Resolves once the output (after `from`) matches `pattern`; rejects after `timeoutMs`. */
  readonly waitFor: (pattern: RegExp | string, from?: number, timeoutMs?: number) => Promise<number>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts `argv` in a pseudo-terminal. */
export function startPty(argv: readonly string[], env: NodeJS.ProcessEnv): Pty {
  const child = spawn('script', ['-qfec', argv.map(quote).join(' '), '/dev/null'], {
    env: { ...env, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  // A key typed as the program exits (a second Ctrl-C racing the first) meets a closed pipe: it is
  // lost, as it would be on a real terminal; the test asserts the exit itself.
  child.stdin!.on('error', () => undefined);
  const text = () => out.replace(ANSI, '');
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    text,
    exited,
    type: (keys) => void child.stdin!.write(keys),
    waitFor: (pattern, from = 0, timeoutMs = 10_000) =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          const t = text().slice(from);
          const i = typeof pattern === 'string' ? t.indexOf(pattern) : t.search(pattern);
          if (i < 0) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(from + i + 1);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${String(pattern)}; output so far:\n${text()}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
