// Issue 17, grep rows: the `grep` tool against ripgrep run directly (the `rg` of
// @vscode/ripgrep, spawned asynchronously from this same process, as the tool does), paired and
// alternated (ours then rg, then rg then ours, ..., a collection before each pair); the figures are each side's median and the median of
// the pair-by-pair ratios.
//   - content, first page, and no match, on a 585-file repository (the first 585 files this
//     repository tracks, copied to a temp folder);
//   - files_with_matches on the ~95,000-file tree of `tools-workspace.bench.ts` (built by that
//     bench; skipped when missing).
// BENCH_ONLY=small|large runs one part. BENCH_RUNS sets the pairs (default 100 on the small repo, a third of that on the
// large tree; with 30 the small repo's first-page ratio swung 1.02–1.10x between runs, with 100 it gave 0.99x and 1.03x).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { grepTool, LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, gc, median } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ONLY = process.env.BENCH_ONLY; // 'small' or 'large': one part only
const repo = resolve(import.meta.dirname, '..');

/** The first 585 files this repository tracks, copied once. */
function smallRepo(): string {
  const dir = join(tmpdir(), 'a3s-bench-585-v1');
  if (existsSync(join(dir, '.complete'))) return dir;
  const tracked = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean);
  let n = 0;
  for (const f of tracked) {
    if (n === 585) break;
    if (!existsSync(join(repo, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(repo, f), join(dir, f));
    n++;
  }
  writeFileSync(join(dir, '.complete'), String(n));
  return dir;
}

/** Runs rg to completion from this process, as the tool does. */
function rgRun(rg: string, cwd: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(rg, ['--no-config', '--hidden', '--no-require-git', ...args, '.'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', () => undefined);
    child.on('error', fail);
    child.on('close', (code) => (code === 0 || code === 1 ? ok() : fail(new Error(`rg exited ${code}`))));
  });
}

async function paired(label: string, runs: number, ours: () => Promise<unknown>, peer: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) {
    await ours();
    await peer();
  }
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  const timed = async (fn: () => Promise<unknown>): Promise<number> => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < runs; i++) {
    gc();
    // Which side goes first (right after the collection) alternates pair by pair.
    const first = await timed(i % 2 === 0 ? ours : peer);
    const second = await timed(i % 2 === 0 ? peer : ours);
    const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
    a.push(x);
    b.push(y);
    r.push(x / y);
  }
  console.log(
    `${label.padEnd(58)} ours ${fmt(median(a), 2).padStart(8)} ms   rg ${fmt(median(b), 2).padStart(8)} ms   ratio ${fmt(median(r), 2)}x  (${runs} pairs)`,
  );
}

async function grepOn(root: string) {
  const ws = new LocalWorkspace({ root });
  const backend = await ws.search!.backend();
  const rg = (backend as unknown as { rg: string }).rg;
  const ctx = createToolContext({ workspace: ws, toolName: 'grep', callId: 'b', runId: 'b', sessionId: 'b' });
  const run = (args: Record<string, unknown>): Promise<ToolResult> => (grepTool as Tool<unknown>).execute(args, ctx);
  return { rg, run };
}

const small = smallRepo();
if (ONLY !== 'large') {
  const { rg, run } = await grepOn(small);
  const pattern = 'export';
  const s = await run({ pattern, output_mode: 'summary' });
  console.log(`small repo: ${small} (585 files); pattern '${pattern}': ${s.output}`);
  await paired(
    `grep content, first page (200), '${pattern}'`,
    RUNS,
    () => run({ pattern }),
    () => rgRun(rg, small, ['-n', pattern]),
  );
  const rare = 'zqxj_never_here';
  await paired(
    'grep content, no match',
    RUNS,
    () => run({ pattern: rare }),
    () => rgRun(rg, small, ['-n', rare]),
  );
}

const big = join(tmpdir(), 'a3s-bench-tree-v1');
if (ONLY === 'small') {
  // the large tree is skipped
} else if (existsSync(join(big, '.complete'))) {
  const { rg, run } = await grepOn(big);
  const pattern = 'deprecated';
  console.log(`large tree: ${big}; pattern '${pattern}'`);
  await paired(
    'grep files_with_matches (first page, 200)',
    Math.max(10, Math.round(RUNS / 3)),
    () => run({ pattern, output_mode: 'files_with_matches' }),
    () => rgRun(rg, big, ['-l', pattern]),
  );
} else console.log(`large tree ${big} missing: run bench/tools-workspace.bench.ts once to build it`);
