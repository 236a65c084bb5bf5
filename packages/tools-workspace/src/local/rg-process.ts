/**
 * Runs ripgrep and reads its output: whole (for paths and counts) or as a stream of records (for
 * matches, so a caller that stops early kills `rg` instead of waiting for the whole tree).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CancelledError } from '@a3s-code/core';
import { WorkspaceSearchError } from '../errors.js';

type RgChild = ChildProcessByStdio<null, Readable, Readable>;

function start(rg: string, args: readonly string[], cwd: string): RgChild {
  return spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

function failure(code: number | null, stderr: string, field: string): WorkspaceSearchError | undefined {
  // 0: matches, 1: none, 2: an error (with or without partial results).
  if (code === 0 || code === 1) return undefined;
  if (
    /regex parse error|error parsing regex|unclosed|unopened|repetition operator|invalid/i.test(stderr) &&
    !/No such file/.test(stderr)
  ) {
    const isGlob = /glob/i.test(stderr);
    return new WorkspaceSearchError(isGlob ? 'glob' : field, stderr.trim().split('\n').slice(0, 6).join('\n'));
  }
  return undefined;
}

/** Runs `rg` to completion and returns stdout. Rejects `WORKSPACE_SEARCH` for a bad pattern. */
export async function runRg(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal | undefined,
  field = 'pattern',
): Promise<Buffer> {
  return (await runRgCapped(rg, args, cwd, signal, Number.POSITIVE_INFINITY, field))!;
}

/**
 * {@link runRg} with a bound on stdout: `undefined` (and `rg` stopped) as soon as the output
 * passes `maxBytes`.
 */
export function runRgCapped(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal | undefined,
  maxBytes: number,
  field = 'pattern',
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError('search', signal.reason));
    const child = start(rg, args, cwd);
    const out: Buffer[] = [];
    let bytes = 0;
    let over = false;
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      if (over) return;
      bytes += c.length;
      if (bytes > maxBytes) {
        over = true;
        out.length = 0;
        child.kill('SIGKILL');
      } else out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 8192) err += c.toString('utf8');
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
      reject(new CancelledError('search', signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => reject(new WorkspaceSearchError('engine', `cannot run ripgrep: ${e.message}`, e)));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (over) return resolve(undefined);
      const bad = failure(code, err, field);
      if (bad) reject(bad);
      else resolve(Buffer.concat(out));
    });
  });
}

/** Splits a buffer on a separator byte into strings (no empty trailing record). */
export function splitRecords(buf: Buffer, sep: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const i = buf.indexOf(sep, from);
    if (i < 0) break;
    out.push(buf.toString('utf8', from, i));
    from = i + 1;
  }
  if (from < buf.length) out.push(buf.toString('utf8', from));
  return out;
}

/** Streams `rg`'s stdout line by line (`\n`-terminated, as bytes); stops `rg` when the consumer returns. */
export async function* streamRgLines(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  if (signal?.aborted) throw new CancelledError('search', signal.reason);
  const child = start(rg, args, cwd);
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    if (err.length < 8192) err += c.toString('utf8');
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const spawnError = new Promise<never>((_, reject) =>
    child.on('error', (e) => reject(new WorkspaceSearchError('engine', `cannot run ripgrep: ${e.message}`, e))),
  );
  spawnError.catch(() => undefined);
  const onAbort = (): void => {
    child.kill('SIGKILL');
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (;;) {
        const nl = buf.indexOf(10, from);
        if (nl < 0) break;
        yield buf.subarray(from, nl);
        from = nl + 1;
      }
      rest = Buffer.from(buf.subarray(from));
      buf = rest;
    }
    if (rest.length > 0) yield rest;
    if (signal?.aborted) throw new CancelledError('search', signal.reason);
    const bad = failure(await Promise.race([closed, spawnError]), err, 'pattern');
    if (bad) throw bad;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
