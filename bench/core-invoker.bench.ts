/**
 * Benchmark of the governed tool kernel (`@a3s-code/core`).
 *
 * 1. Overhead of a governed call of a no-op tool (source `agent`, policy allow, events to a real
 *    emitter) compared with calling the same function directly: median over 100,000 calls each.
 *    Goal: overhead ≤ 20 µs.
 * 2. `batch` of 32 read-only calls compared with the same 32 calls made one after another, for a
 *    no-op tool (pure kernel cost) and for a tool that waits 2 ms (I/O-bound, where fan-out pays).
 *
 * Run: `pnpm exec tsx bench/core-invoker.bench.ts` (or through `bench/run.ts`, which calls `run`).
 */
import { pathToFileURL } from 'node:url';
import {
  AgentEventEmitter,
  ToolInvoker,
  ToolRegistry,
  createBatchTool,
  type InvocationContext,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '@a3s-code/core';

const CALLS = 100_000;
const WARMUP = 10_000;
const BATCH_ROUNDS = 30;

const noopFn = async (_args: unknown, _ctx: ToolContext): Promise<ToolResult> => ({ output: '', exitCode: 0 });
const ioFn = (_args: unknown, _ctx: ToolContext): Promise<ToolResult> =>
  new Promise((resolve) => setTimeout(() => resolve({ output: 'done', exitCode: 0 }), 2));

const schema = { type: 'object', properties: {}, additionalProperties: false } as const;
const caps = { readOnly: true, idempotent: true, maxParallelism: 1024 } as const;
const noop: Tool = {
  name: 'noop',
  description: 'no-op',
  tier: 'read',
  inputSchema: schema,
  capabilities: caps,
  execute: noopFn,
};
const io: Tool = {
  name: 'io',
  description: 'waits 2 ms',
  tier: 'read',
  inputSchema: schema,
  capabilities: caps,
  execute: ioFn,
};

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return out;
}

function setup(): { invoker: ToolInvoker; context: InvocationContext } {
  const registry = new ToolRegistry();
  registry.add(noop);
  registry.add(io);
  registry.add(createBatchTool());
  const invoker = new ToolInvoker({ registry, policy: { allow: ['noop', 'io', 'batch'] } });
  const events = new AgentEventEmitter({ runId: 'bench', sessionId: 'bench' });
  const context: InvocationContext = {
    runId: 'bench',
    sessionId: 'bench',
    signal: new AbortController().signal,
    events,
    governance: {},
  };
  return { invoker, context };
}

const fmt = (us: number): string => `${us.toFixed(2)} µs`;
const fmtMs = (us: number): string => `${(us / 1000).toFixed(2)} ms`;

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const { invoker, context } = setup();
  const ctx = {} as ToolContext;
  const args = {};

  await timeEach(WARMUP, () => noopFn(args, ctx));
  await timeEach(WARMUP, (i) => invoker.invoke({ id: `w${i}`, name: 'noop', args }, context));
  const direct = await timeEach(CALLS, () => noopFn(args, ctx));
  const governed = await timeEach(CALLS, (i) => invoker.invoke({ id: `c${i}`, name: 'noop', args }, context));
  const overhead = median(governed) - median(direct);

  console.log(
    `core-invoker: governed no-op call vs direct call (${CALLS.toLocaleString('en')} calls each, Node ${process.version})`,
  );
  console.log(`  direct    median ${fmt(median(direct))}  p99 ${fmt(percentile(direct, 99))}`);
  console.log(`  governed  median ${fmt(median(governed))}  p99 ${fmt(percentile(governed, 99))}`);
  console.log(`  overhead  median ${fmt(overhead)}  (goal ≤ 20 µs: ${overhead <= 20 ? 'met' : 'NOT met'})`);

  for (const tool of ['noop', 'io'] as const) {
    const calls = Array.from({ length: 32 }, () => ({ tool, args: {} }));
    const batched = await timeEach(BATCH_ROUNDS, (i) =>
      invoker.invoke({ id: `b${tool}${i}`, name: 'batch', args: { calls } }, context),
    );
    const sequential = await timeEach(BATCH_ROUNDS, async (i) => {
      for (let j = 0; j < 32; j++) await invoker.invoke({ id: `s${tool}${i}.${j}`, name: tool, args: {} }, context);
    });
    const label = tool === 'noop' ? 'no-op tool' : '2 ms I/O tool';
    const speedup = median(sequential) / median(batched);
    console.log(
      `core-invoker: batch of 32 read-only calls vs 32 sequential calls (${label}, median of ${BATCH_ROUNDS})`,
    );
    console.log(`  batch       ${fmtMs(median(batched))}`);
    console.log(
      `  sequential  ${fmtMs(median(sequential))}  (batch is ${speedup.toFixed(1)}x ${speedup >= 1 ? 'faster' : 'slower'})`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
