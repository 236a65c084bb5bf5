// `main` on a stdin that says it is a terminal (so `a3s code` asks its questions), with stdout
// captured: shared by the trust tests.
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../src/io.js';

/** An io whose stdin is a terminal, for `main`; `out()` is everything written to stdout and stderr. */
export function onTerminal(home: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let text = '';
  const stdout = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const io: Io = { stdin, stdout, stderr: stdout, env: { PATH: process.env.PATH ?? '', A3S_HOME: home }, cwd: '/' };
  return { io, stdin, out: () => text };
}

/** Resolves once `check()` holds; throws after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}
