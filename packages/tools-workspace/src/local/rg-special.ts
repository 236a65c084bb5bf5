/**
 * The files ripgrep cannot split into the lines `read` shows (see {@link readViewLines}): UTF-16
 * text, which rg skips as binary without a byte-order mark, and CR-only files, which rg reads as
 * one line. For a one-file target the file is recognised from its head and rg searches read's
 * lines of it fed on its standard input; rg's own results for the file are dropped.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { mayHaveReadView, READ_VIEW_HEAD_BYTES, readViewLines } from '../search/read-view.js';
import { openContained } from './contained-open.js';
import { runRg } from './rg-process.js';
import { changedError } from './rg-target.js';

/** Matches in read's lines of each file rg cannot split as read does (a file with none maps to `[]`). */
export type ReadViewMatches = ReadonlyMap<string, readonly WorkspaceGrepMatch[]>;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The lines `read` shows of the regular file `rel` under the real `root` when rg cannot split it
 * so; `undefined` for any other file, or one that cannot be opened (rg reports on it as usual).
 * Rejects `WORKSPACE_CHANGED` when `rel` (or a folder on its way) now leads elsewhere through a
 * symbolic link: its lines would be another file's, shown under this name.
 */
export async function readViewOf(root: string, rel: string): Promise<string[] | undefined> {
  let entry: Awaited<ReturnType<typeof openContained>>;
  try {
    entry = await openContained(root, rel, OPEN_FLAGS, { field: 'path', original: rel });
  } catch {
    return undefined;
  }
  if (entry.rel !== rel) {
    await entry.handle.close().catch(() => undefined);
    throw changedError(rel);
  }
  try {
    const st = await entry.handle.stat();
    if (!st.isFile()) return undefined;
    const head = Buffer.alloc(Math.min(st.size, READ_VIEW_HEAD_BYTES));
    const { bytesRead } = await entry.handle.read(head, 0, head.length, 0);
    if (!mayHaveReadView(head.subarray(0, bytesRead), st.size)) return undefined;
    return readViewLines(await entry.handle.readFile());
  } catch {
    return undefined;
  } finally {
    await entry.handle.close().catch(() => undefined);
  }
}

/**
 * False when the head of the file at `rel` shows it is not one rg splits otherwise than `read`
 * (most files): a quick look, with no descriptor kept and no wait on the thread pool, before
 * {@link readViewOf} opens it as a contained path. True when it cannot tell.
 */
function mayNeedReadView(root: string, rel: string): boolean {
  let fd: number;
  try {
    fd = openSync(`${root}/${rel}`, OPEN_FLAGS);
  } catch {
    return true;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return true;
    const head = Buffer.allocUnsafe(Math.min(st.size, READ_VIEW_HEAD_BYTES));
    const read = readSync(fd, head, 0, head.length, 0);
    return mayHaveReadView(head.subarray(0, read), st.size);
  } catch {
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Text fed to one rg process at most, in UTF-16 units (files beyond it go to the next process). */
const BATCH_CHARS = 16 * 1024 * 1024;

/**
 * The matches of rg's pattern (`match`: its matching flags and `-e pattern`) in read's lines of
 * each file: the lines are fed to rg on its standard input, one file after another, so the
 * pattern means exactly what it means for every other file; rg's line numbers are mapped back to
 * each file's own, and the text shown is read's line.
 */
export async function matchesIn(
  rg: string,
  match: readonly string[],
  root: string,
  signal: AbortSignal | undefined,
  files: readonly { readonly path: string; readonly lines: readonly string[] }[],
): Promise<Map<string, WorkspaceGrepMatch[]>> {
  const found = new Map<string, WorkspaceGrepMatch[]>(files.map((f) => [f.path, []]));
  for (let i = 0; i < files.length; ) {
    const batch: (typeof files)[number][] = [];
    let chars = 0;
    do {
      batch.push(files[i]!);
      for (const line of files[i]!.lines) chars += line.length + 1;
      i++;
    } while (i < files.length && chars < BATCH_CHARS);
    // Global line number of each file's first line, to map rg's numbers back.
    const firsts: number[] = [];
    let next = 1;
    for (const f of batch) {
      firsts.push(next);
      next += f.lines.length;
    }
    const text = batch.map((f) => (f.lines.length === 0 ? '' : `${f.lines.join('\n')}\n`)).join('');
    const out = await runRg(
      rg,
      [...match, '--line-number', '--no-filename', '--no-heading', '--max-columns', '1', '--', '-'],
      root,
      signal,
      'pattern',
      Buffer.from(text, 'utf8'),
    );
    for (const record of out.toString('latin1').split('\n')) {
      const n = Number.parseInt(record, 10);
      if (!Number.isSafeInteger(n) || n < 1) continue;
      let lo = 0;
      let hi = batch.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (firsts[mid]! <= n) lo = mid;
        else hi = mid - 1;
      }
      const file = batch[lo]!;
      const line = n - firsts[lo]! + 1;
      if (line <= file.lines.length) found.get(file.path)!.push({ path: file.path, line, text: file.lines[line - 1]! });
    }
  }
  return found;
}

/**
 * Whether `text`, the line-1 text of a match rg gives in a tree search, may be a whole CR-only
 * file, which rg reads as one line: it holds a CR before its last character (a CRLF line's own
 * `\r` is its last).
 */
export function mayBeCrOnly(line: number, text: string): boolean {
  if (line !== 1) return false;
  const cr = text.indexOf('\r');
  return cr >= 0 && cr < text.length - 1;
}

/** {@link mayBeCrOnly} on the line's bytes `bytes[start, end)` (rg's record, not decoded). */
export function mayBeCrOnlyBytes(line: number, bytes: Uint8Array, start: number, end: number): boolean {
  return line === 1 && end - 1 > start && bytes.subarray(start, end - 1).includes(13);
}

/** Looks up the matches in read's lines of a file rg read as one line; `undefined` when it is not such a file. */
export type CrOnlyLookup = (path: string) => Promise<readonly WorkspaceGrepMatch[] | undefined>;

/**
 * A {@link CrOnlyLookup} for a tree search: a file rg found a line-1 match in that may be CR-only
 * is read, and, when it is, searched in read's lines (rg's one-line match is dropped for them).
 */
export function crOnlyLookup(
  rg: string,
  match: readonly string[],
  root: string,
  signal: AbortSignal | undefined,
): CrOnlyLookup {
  return async (path) => {
    if (!mayNeedReadView(root, path)) return undefined;
    const lines = await readViewOf(root, path);
    if (lines === undefined) return undefined;
    return (await matchesIn(rg, match, root, signal, [{ path, lines }])).get(path) ?? [];
  };
}

/**
 * Per-file counts with each file rg counted one line of that `read` splits at CR counted in
 * read's lines (a CR-only file rg matches counts 1: only those are read), in the same order.
 */
export async function crOnlyCounts<T extends { readonly path: string; readonly count: number }>(
  counts: readonly T[],
  crOnly: CrOnlyLookup,
): Promise<T[]> {
  const out = [...counts];
  const ones = out.flatMap((c, i) => (c.count === 1 ? [i] : []));
  for (let k = 0; k < ones.length; k += 32) {
    const chunk = ones.slice(k, k + 32);
    const found = await Promise.all(chunk.map((i) => crOnly(out[i]!.path)));
    chunk.forEach((i, j) => {
      if (found[j] !== undefined) out[i] = { ...out[i]!, count: found[j].length };
    });
  }
  return out.filter((c) => c.count > 0);
}
