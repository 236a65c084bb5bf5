// `grep` on one very long matching line (a minified bundle): the `grep` tool's content mode
// against `rg -n` run directly on the same file from this process, paired and alternated, medians.
// Before the change of 2026-12-05 the tool's stream of rg's records copied the whole line read so
// far for every 64 KiB chunk of it (quadratic): a 64 MB line took 43 s, a 200 MB one ran past the
// tool's 120 s timeout. BENCH_MB sets the line's size (default 64), BENCH_RUNS the pairs (default 5).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { grepTool, LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, pairedMedians } from './util.js';

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

const m = await pairedMedians(RUNS, ours, peer, 1);
console.log(
  `grep content on one ${MB} MB matching line: ours ${fmt(m.ours, 0)} ms   rg -n ${fmt(m.peer, 0)} ms   ratio ${fmt(m.ratio, 1)}x (${RUNS} pairs)`,
);
rmSync(dir, { recursive: true, force: true });
