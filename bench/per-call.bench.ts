/**
 * Per-call fixed costs (issue 17), each row against its peer measured in the same run, paired and
 * alternated (A B A B …), so load on a shared machine hits both sides alike:
 *
 * 1. governed `read` of a small file (`session.tool('read')`) vs `fs.promises.readFile` of it;
 * 2. one `ctx.tool('noop')` call inside `program` vs one direct governed call of `noop`
 *    (a program of 200 calls minus a program of none, per call, against 200 direct calls), and
 *    vs a bare worker-to-host round trip plus that direct call (the floor of a thread hop), and
 *    the VM's own cost per call with no thread and no governance at all (`vm-floor.ts`);
 * 3. `program` with no tool calls (warm worker) vs a governed no-op call;
 * 4. `batch` of 32 no-op calls vs the same 32 calls one after another.
 *
 * Each row prints the median of each side, the median of the pair-by-pair ratios and p99.
 * Run after a build: `pnpm exec tsx bench/run.ts per-call` (`BENCH_ROUNDS=n` sets the pairs).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  Agent,
  AgentEventEmitter,
  ToolInvoker,
  ToolRegistry,
  createBatchTool,
  createProgramTool,
  type InvocationContext,
} from '@a3s-code/core';
import { ScriptedLlmClient, createTestToolPack } from '@a3s-code/core/testing';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';
import { threadFloor } from './thread-floor.js';
import { vmCallFloorMs } from './vm-floor.js';
import { fmt, gc, median } from './util.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 0) || 0;

/** The p-th percentile of `xs`. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}

/** Milliseconds `fn` took, or the figure it returns itself (a number: it timed its own part). */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  const own = await fn();
  return typeof own === 'number' ? own : performance.now() - t0;
}

/** Runs `ours` and `peer` alternately `n` times (after `warm` unrecorded pairs); milliseconds per sample. */
async function paired(
  n: number,
  warm: number,
  ours: () => Promise<unknown>,
  peer: () => Promise<unknown>,
): Promise<{ ours: number[]; peer: number[]; ratios: number[] }> {
  for (let i = 0; i < warm; i++) {
    await ours();
    await peer();
  }
  gc();
  const out = { ours: [] as number[], peer: [] as number[], ratios: [] as number[] };
  for (let i = 0; i < n; i++) {
    // Alternate which side goes first, so neither always runs right after a collection or a context switch.
    const a = i % 2 === 0 ? await timed(ours) : 0;
    const b = await timed(peer);
    const c = i % 2 === 1 ? await timed(ours) : a;
    out.ours.push(c);
    out.peer.push(b);
    out.ratios.push(c / b);
  }
  return out;
}

function report(title: string, oursName: string, peerName: string, r: Awaited<ReturnType<typeof paired>>): void {
  const us = (ms: number): string => `${fmt(ms * 1000, 1)} µs`;
  console.log(`${title} (${r.ours.length} pairs)`);
  console.log(`  ${oursName.padEnd(34)} median ${us(median(r.ours))}  p99 ${us(percentile(r.ours, 99))}`);
  console.log(`  ${peerName.padEnd(34)} median ${us(median(r.peer))}  p99 ${us(percentile(r.peer, 99))}`);
  console.log(
    `  ratio (median of pair ratios) ${fmt(median(r.ratios), 2)}x; p99/median of ours ${fmt(percentile(r.ours, 99) / median(r.ours), 1)}`,
  );
}

function kernel(): { invoke: (name: string, args: unknown, id: string) => Promise<{ ok: boolean; output: string }> } {
  const registry = new ToolRegistry();
  registry.registerPack(createTestToolPack().pack);
  registry.add(createProgramTool());
  registry.add(createBatchTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
  const events = new AgentEventEmitter({ runId: 'bench', sessionId: 'bench' });
  const context: InvocationContext = {
    runId: 'bench',
    sessionId: 'bench',
    signal: new AbortController().signal,
    events,
    governance: {},
  };
  return { invoke: (name, args, id) => invoker.invoke({ id, name, args }, context) };
}

async function governedRead(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-read-'));
  const lines = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // a small source line`);
  writeFileSync(join(dir, 'small.ts'), `${lines.join('\n')}\n`);
  const agent = await Agent.create({
    model: new ScriptedLlmClient([]),
    tools: [workspaceToolPack],
    workspace: new LocalWorkspace({ root: dir }),
    permissions: { defaultDecision: 'allow' },
    persistence: 'memory',
  });
  const session = await agent.session(dir);
  const file = join(dir, 'small.ts');
  const r = await paired(
    ROUNDS || 2000,
    300,
    async () => {
      const res = await session.tool('read', { file_path: 'small.ts' });
      if (!res.ok) throw new Error(res.output);
    },
    () => readFile(file, 'utf8'),
  );
  report(
    'governed read of a small file (3.4 KiB) vs fs.promises.readFile',
    "session.tool('read')",
    'fs.promises.readFile',
    r,
  );
  await session.close();
  rmSync(dir, { recursive: true, force: true });
}

async function programRows(): Promise<void> {
  const { invoke } = kernel();
  let id = 0;
  const call = async (name: string, args: unknown): Promise<void> => {
    const res = await invoke(name, args, `c${id++}`);
    if (!res.ok) throw new Error(`${name}: ${res.output}`);
  };
  const N = 200;
  const empty = { source: 'async function run() { return 1; }' };
  const loop = {
    source: `async function run(ctx) { for (let i = 0; i < ${N}; i++) await ctx.tool("noop", {}); return "done"; }`,
    limits: { max_tool_calls: N },
  };
  const warm = await paired(
    ROUNDS || 300,
    50,
    () => call('program', empty),
    () => call('noop', {}),
  );
  report(
    'program with no tool calls (warm) vs a governed no-op call',
    'program, returns at once',
    'governed noop',
    warm,
  );

  // As between model turns: the worker has a moment to itself before each program.
  const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const spaced = await paired(
    ROUNDS ? Math.max(10, ROUNDS / 4) : 150,
    10,
    async () => {
      await idle(5);
      const t0 = performance.now();
      await call('program', empty);
      return performance.now() - t0;
    },
    async () => {
      await idle(5);
      const t0 = performance.now();
      await call('noop', {});
      return performance.now() - t0;
    },
  );
  report(
    'program with no tool calls, 5 ms idle before each call (as between model turns)',
    'program, returns at once',
    'governed noop',
    spaced,
  );

  // Per ctx call: (program of N calls − program of none) / N, against N direct calls / N, and
  // the bare thread round trip under it (no VM, no JSON, no governance).
  const perCtx: number[] = [];
  const perDirect: number[] = [];
  const perHop: number[] = [];
  const perVm: number[] = [];
  const floor = await threadFloor();
  await floor.roundTripMs(N);
  for (let i = 0; i < 5; i++) await vmCallFloorMs(N);
  for (let i = 0; i < 10; i++) {
    await call('program', loop);
    await call('program', empty);
  }
  for (let i = 0; i < (ROUNDS ? Math.max(10, ROUNDS / 20) : 30); i++) {
    const withCalls = await timed(() => call('program', loop));
    const direct = await timed(async () => {
      for (let j = 0; j < N; j++) await call('noop', {});
    });
    const none = await timed(() => call('program', empty));
    perCtx.push((withCalls - none) / N);
    perDirect.push(direct / N);
    perHop.push(await floor.roundTripMs(N));
    perVm.push(await vmCallFloorMs(N));
  }
  await floor.close();
  report(
    `ctx.tool('noop') inside program vs a direct governed call (${N} calls a program)`,
    'ctx.tool call',
    'direct governed call',
    {
      ours: perCtx,
      peer: perDirect,
      ratios: perCtx.map((x, i) => x / (perDirect[i] as number)),
    },
  );
  report(
    `ctx.tool('noop') inside program vs a bare worker-to-host round trip plus a direct governed call`,
    'ctx.tool call',
    'round trip + direct call',
    {
      ours: perCtx,
      peer: perHop.map((h, i) => h + (perDirect[i] as number)),
      ratios: perCtx.map((x, i) => x / ((perHop[i] as number) + (perDirect[i] as number))),
    },
  );
  console.log(`  bare round trip alone: median ${fmt(median(perHop) * 1000, 1)} µs`);
  report(
    `the VM's own plumbing per call (program on the host thread, instant host) vs a direct governed call`,
    'in-thread VM call, no governance',
    'direct governed call',
    {
      ours: perVm,
      peer: perDirect,
      ratios: perVm.map((x, i) => x / (perDirect[i] as number)),
    },
  );
}

async function batchRow(): Promise<void> {
  const { invoke } = kernel();
  let id = 0;
  const calls = Array.from({ length: 32 }, () => ({ tool: 'noop', args: {} }));
  const r = await paired(
    ROUNDS || 2000,
    300,
    async () => {
      const res = await invoke('batch', { calls }, `b${id++}`);
      if (!res.ok) throw new Error(res.output);
    },
    async () => {
      const base = id++;
      for (let j = 0; j < 32; j++) await invoke('noop', {}, `s${base}.${j}`);
    },
  );
  report('batch of 32 no-op calls vs the same 32 calls in sequence', 'batch', '32 sequential governed calls', r);
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  console.log(`per-call fixed costs (Node ${process.version}; paired, alternated)`);
  if (!only || only.includes('read')) await governedRead();
  if (!only || only.includes('program')) await programRows();
  if (!only || only.includes('batch')) await batchRow();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
