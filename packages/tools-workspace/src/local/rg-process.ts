/**
 * Runs ripgrep and reads its output: whole (for paths and counts) or as a stream of records (for
 * matches, so a caller that stops early kills `rg` instead of waiting for the whole tree).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CancelledError } from '@a3s-code/core';
import { WorkspaceSearchError } from '../errors.js';
import { UNSUPPORTED_SYNTAX_ALLOWED } from '../search/regex-syntax.js';
import { nameFromBytes } from '../paths/byte-names.js';

type RgChild = ChildProcessByStdio<null, Readable, Readable>;

/**
 * What rg reads as `-`: a descriptor of a searched file (opened and checked here), or bytes
 * written to its standard input.
 */
export type RgInput = number | Uint8Array;

/**
 * Where rg runs: a folder, or a folder with a descriptor rg inherits as its fd 3 (a searched
 * folder it reaches through `/proc/self/fd/3`, see `rg-target.ts`).
 */
export type RgCwd = string | { readonly cwd: string; readonly fd: number };

/** Spawns rg in `at` with `stdin` as its input `-`, if any. */
function start(rg: string, args: readonly string[], at: RgCwd, stdin?: RgInput): RgChild {
  const cwd = typeof at === 'string' ? at : at.cwd;
  const extra = typeof at === 'string' ? [] : [at.fd];
  if (stdin === undefined || typeof stdin === 'number')
    return spawn(rg, args, { cwd, stdio: [stdin ?? 'ignore', 'pipe', 'pipe', ...extra] }) as RgChild;
  const child = spawn(rg, args, { cwd, stdio: ['pipe', 'pipe', 'pipe', ...extra] });
  // rg may exit before reading it all (killed, or a bad pattern): the broken pipe is not an error here.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(stdin);
  return child as unknown as RgChild;
}

function failure(code: number | null, stderr: string, field: string): WorkspaceSearchError | undefined {
  // 0: matches, 1: none, 2: an error (with or without partial results).
  if (code === 0 || code === 1) return undefined;
  if (
    /regex parse error|error parsing regex|unclosed|unopened|repetition operator|invalid/i.test(stderr) &&
    !/No such file/.test(stderr)
  ) {
    const isGlob = /glob/i.test(stderr);
    // rg suggests its --pcre2 flag, which the tools do not offer: say what is allowed instead.
    const text = stderr
      .split(/\n\s*Consider enabling PCRE2/)[0]!
      .trim()
      .split('\n')
      .slice(0, 6)
      .join('\n');
    const unsupported = /backreferences are not supported|look-around/.test(text);
    return new WorkspaceSearchError(
      isGlob ? 'glob' : field,
      unsupported ? `${text}\n${UNSUPPORTED_SYNTAX_ALLOWED}` : text,
    );
  }
  return undefined;
}

/** Runs `rg` to completion and returns stdout. Rejects `WORKSPACE_SEARCH` for a bad pattern. */
export async function runRg(
  rg: string,
  args: readonly string[],
  cwd: RgCwd,
  signal: AbortSignal | undefined,
  field = 'pattern',
  stdin?: RgInput,
): Promise<Buffer> {
  return (await runRgCapped(rg, args, cwd, signal, Number.POSITIVE_INFINITY, field, stdin))!;
}

/**
 * {@link runRg} with a bound on stdout: `undefined` (and `rg` stopped) as soon as the output
 * passes `maxBytes`.
 */
export function runRgCapped(
  rg: string,
  args: readonly string[],
  cwd: RgCwd,
  signal: AbortSignal | undefined,
  maxBytes: number,
  field = 'pattern',
  stdin?: RgInput,
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError('search', signal.reason));
    const child = start(rg, args, cwd, stdin);
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
    out.push(nameFromBytes(buf, from, i));
    from = i + 1;
  }
  if (from < buf.length) out.push(nameFromBytes(buf, from));
  return out;
}

/**
 * One record of rg's `--null` output starting at `from`: `path\0rest\n` (`nul` is the NUL's offset,
 * `end` the closing newline's), or a line to skip (rg's notice that a binary file matches).
 */
export type RgRecord =
  | { readonly kind: 'record'; readonly nul: number; readonly end: number }
  | { readonly kind: 'skip'; readonly end: number };

// Both of rg's binary-file notices ("binary file matches", "WARNING: stopped searching binary file") end so.
const NOTICE = Buffer.from('(found "\\0" byte around offset ');

/**
 * Reads the record at `from`. A file name may hold newlines, so the record runs to the first
 * NUL and then to the next newline; a line before any NUL that is rg's binary-file notice is a
 * line to skip. `undefined` when no record starts there, or (with `complete` false) when the
 * record is not whole yet.
 */
export function readRecord(out: Buffer, from: number, complete = true): RgRecord | undefined {
  if (from >= out.length) return undefined;
  const nul = out.indexOf(0, from);
  let nl = out.indexOf(10, from);
  if (nl >= 0 && (nul < 0 || nl < nul)) {
    if (out.subarray(from, nl).includes(NOTICE)) return { kind: 'skip', end: nl };
  }
  if (nul < 0) return complete ? { kind: 'skip', end: out.length } : undefined;
  nl = out.indexOf(10, nul + 1);
  if (nl < 0 && !complete) return undefined;
  return { kind: 'record', nul, end: nl < 0 ? out.length : nl };
}

/** Longest matching line streamed (256 MiB): past it a line could not become a string anyway. */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** The refusal of a record past {@link MAX_RECORD_BYTES}, naming its file. */
function tooLong(pending: readonly Buffer[]): WorkspaceSearchError {
  const first = pending[0]!;
  const nul = first.indexOf(0);
  const file = nul < 0 ? '' : ` in ${nameFromBytes(first, 0, nul)}`;
  return new WorkspaceSearchError(
    'engine',
    `a matching line${file} is longer than ${MAX_RECORD_BYTES} bytes, more than a search result can hold; narrow the search with path or glob to leave that file out`,
  );
}

/**
 * Streams `rg`'s `--null` records (`path\0rest`, as bytes, without the closing newline; file names
 * may hold newlines); stops `rg` when the consumer returns.
 */
export async function* streamRgRecords(
  rg: string,
  args: readonly string[],
  cwd: RgCwd,
  signal: AbortSignal | undefined,
  stdin?: RgInput,
): AsyncGenerator<Buffer> {
  if (signal?.aborted) throw new CancelledError('search', signal.reason);
  const child = start(rg, args, cwd, stdin);
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
  // The start of a record not whole yet, in the chunks it came in: a long line (a minified
  // bundle's) arrives in many chunks, and only a chunk that can end the record (a newline, or a
  // NUL while the record's own is still to come) joins them, so each byte is copied once.
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let pendingNul = false;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      if (pendingBytes > 0 && !(chunk.includes(10) || (!pendingNul && chunk.includes(0)))) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes > MAX_RECORD_BYTES) throw tooLong(pending);
        continue;
      }
      const buf = pendingBytes > 0 ? Buffer.concat([...pending, chunk]) : chunk;
      pending.length = 0;
      pendingBytes = 0;
      let from = 0;
      for (;;) {
        const rec = readRecord(buf, from, false);
        if (rec === undefined) break;
        if (rec.kind === 'record') yield buf.subarray(from, rec.end);
        from = rec.end + 1;
      }
      if (from < buf.length) {
        pending.push(Buffer.from(buf.subarray(from)));
        pendingBytes = buf.length - from;
        pendingNul = buf.indexOf(0, from) >= 0;
      }
    }
    const rest = Buffer.concat(pending);
    for (let from = 0; ; ) {
      const rec = readRecord(rest, from);
      if (rec === undefined) break;
      if (rec.kind === 'record') yield rest.subarray(from, rec.end);
      from = rec.end + 1;
    }
    if (signal?.aborted) throw new CancelledError('search', signal.reason);
    const bad = failure(await Promise.race([closed, spawnError]), err, 'pattern');
    if (bad) throw bad;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
