/**
 * Reading a few lines of a large file costs a chunk and the page, not the file: one read, and a
 * batch naming the same large file 16 times, grow the process by far less than the file's size,
 * and still show the right lines with the whole file's line count and digest. Real files.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { readTool } from './read-tool.js';

const tmp = tempDir('a3s-read-large-');
const ws = new LocalWorkspace({ root: tmp.dir });
/** 80 MiB of 64-byte lines: line n (1-based) starts with n - 1 in 10 digits. */
const LINE_BYTES = 64;
const BLOCK_LINES = 16_384;
const BLOCKS = 80;
const TOTAL = BLOCK_LINES * BLOCKS;
const SIZE = TOTAL * LINE_BYTES;
const lineText = (n: number): string => `${String(n - 1).padStart(10, '0')} ${'x'.repeat(LINE_BYTES - 12)}`;
let digest = '';

beforeAll(() => {
  const hash = createHash('sha256');
  const fd = openSync(join(tmp.dir, 'big.log'), 'w');
  for (let b = 0; b < BLOCKS; b++) {
    const block = Buffer.from(
      Array.from({ length: BLOCK_LINES }, (_, i) => `${lineText(b * BLOCK_LINES + i + 1)}\n`).join(''),
    );
    hash.update(block);
    writeSync(fd, block);
  }
  closeSync(fd);
  digest = `sha256:${hash.digest('hex')}`;
});
afterAll(() => {
  rmSync(join(tmp.dir, 'big.log'), { force: true });
  tmp.cleanup();
});

/** Runs `work`, sampling the resident set meanwhile; returns its result and the largest growth seen. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grown: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 1);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, grown: peak - before };
  } finally {
    clearInterval(sample);
  }
}

/** The numbered lines of an output, as [number, text]. */
function numbered(output: string): Array<[number, string]> {
  return [...output.matchAll(/^ *(\d+)\t(.*)$/gm)].map((m) => [Number(m[1]), m[2]!]);
}

describe('read of a large file', () => {
  it('shows the lines asked for, with the whole count and digest, growing far less than the file', async () => {
    const { result: r, grown } = await peakGrowth(() =>
      call(readTool, ws, { file_path: 'big.log', offset: 1_000_000, limit: 3 }),
    );
    expect(r.exitCode, r.output.slice(0, 300)).toBe(0);
    expect(numbered(r.output)).toEqual([1_000_001, 1_000_002, 1_000_003].map((n) => [n, lineText(n)]));
    expect(r.metadata).toMatchObject({ total_lines: TOTAL, size: SIZE, digest, next_offset: 1_000_003 });
    expect(grown).toBeLessThan(SIZE / 4);
  });

  it('a batch naming the same large file 16 times reads it once and stays as small', async () => {
    const files = Array.from({ length: 16 }, (_, i) => ({ path: 'big.log', offset: i * 80_000, limit: 1 }));
    const { result: r, grown } = await peakGrowth(() => call(readTool, ws, { files }));
    expect(r.exitCode, r.output.slice(0, 300)).toBe(0);
    expect(numbered(r.output)).toEqual(files.map((f) => [f.offset + 1, lineText(f.offset + 1)]));
    const entries = (r.metadata!.batch as { entries: Array<{ total_lines: number; digest: string }> }).entries;
    expect(entries.every((e) => e.total_lines === TOTAL && e.digest === digest)).toBe(true);
    expect(grown).toBeLessThan(SIZE / 4);
  });

  it('a small budget cuts the page where it fills, and its next offset resumes there', async () => {
    const r = await call(readTool, ws, { file_path: 'big.log', offset: 500_000, max_output_bytes: 1024 });
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(1024);
    const shown = numbered(r.output);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown).toEqual(shown.map(([n]) => [n, lineText(n)]));
    expect(shown.map(([n]) => n)).toEqual(shown.map((_, i) => 500_001 + i));
    expect(r.metadata).toMatchObject({ lines_returned: shown.length, next_offset: 500_000 + shown.length });
  });
});
