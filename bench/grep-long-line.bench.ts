// `grep` on one very long matching line (a minified bundle): the `grep` tool's content mode
// against `rg -n` run directly on the same file from this process, paired and alternated, medians.
// Before the change of 2026-12-05 the tool's stream of rg's records copied the whole line read so
// far for every 64 KiB chunk of it (quadratic): a 64 MB line took 43 s, a 200 MB one ran past the
// tool's 120 s timeout. BENCH_MB sets the line's size (default 64), BENCH_RUNS the pairs (default 5).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { grepTool, LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, gc, median } from './util.js';

const MB = Number(process.env.BENCH_MB ?? 64);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-long-line-'));
writeFileSync(join(dir, 'bundle.min.js'), `${'y'.repeat(MB * 1024 * 1024)}\n`);
const ws = new LocalWorkspace({ root: dir });
const rg = ((await ws.search!.backend()) as unknown as { rg: string }).rg;
const ctx = createToolContext({ workspace: ws, toolName: 'grep', callId: 'b', runId: 'b', sessionId: 'b' });

const ours = async (): Promise<void> => {
  const r = (await (grepTool as Tool<unknown>).execute(
    { pattern: 'y{5}', path: 'bundle.min.js', output_mode: 'content' },
    ctx,
  )) as ToolResult;
  if (!r.output.includes('[line cut:')) throw new Error(`unexpected grep output: ${r.output.slice(0, 200)}`);
};
const peer = (): Promise<void> =>
  new Promise((ok, fail) => {
    const child = spawn(rg, ['--no-config', '-n', 'y{5}', 'bundle.min.js'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', () => undefined);
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? ok() : fail(new Error(`rg exited ${code}`))));
  });

await ours();
await peer();
const a: number[] = [];
const b: number[] = [];
const ratio: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const pair: number[] = [];
  for (const fn of i % 2 === 0 ? [ours, peer] : [peer, ours]) {
    gc();
    const t0 = performance.now();
    await fn();
    pair.push(performance.now() - t0);
  }
  const [x, y] = i % 2 === 0 ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
  a.push(x);
  b.push(y);
  ratio.push(x / y);
}
console.log(
  `grep content on one ${MB} MB matching line: ours ${fmt(median(a), 0)} ms   rg -n ${fmt(median(b), 0)} ms   ratio ${fmt(median(ratio), 1)}x (${RUNS} pairs)`,
);
rmSync(dir, { recursive: true, force: true });
