/**
 * Benchmark of `program` (issue 8).
 *
 * 1. VM start: a governed call of `program` whose script returns at once, against a governed
 *    no-op call (the difference is the VM: runtime, context, prelude, evaluation, teardown, and the
 *    round trip to a warm program worker from the pool; a cold worker adds ~50 ms once).
 * 2. Per-`ctx`-call overhead: a program making 1,000 `ctx.tool('noop')` calls, per call, against a
 *    direct governed call of the same tool (each call crosses the worker's message port twice).
 * 3. A 30-call program against 30 model-driven calls through a session with the scripted model:
 *    wall time and tokens sent to the model (request characters / 4, the scripted model's estimate).
 *
 * Run: `node --import tsx --expose-gc bench/program.bench.ts` (or `pnpm bench program`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  Agent,
  AgentEventEmitter,
  ToolInvoker,
  ToolRegistry,
  createProgramTool,
  type InvocationContext,
  type LlmRequest,
} from '@a3s-code/core';
import { ScriptedLlmClient, createTestToolPack, type ScriptedTurn } from '@a3s-code/core/testing';
import { fmt, gc, median } from './util.js';

function kernel(): { invoker: ToolInvoker; context: InvocationContext } {
  const registry = new ToolRegistry();
  registry.registerPack(createTestToolPack().pack);
  registry.add(createProgramTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
  const events = new AgentEventEmitter({ runId: 'bench', sessionId: 'bench' });
  return {
    invoker,
    context: { runId: 'bench', sessionId: 'bench', signal: new AbortController().signal, events, governance: {} },
  };
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

const tokensOf = (requests: readonly LlmRequest[]): number =>
  requests.reduce(
    (n, r) => n + Math.ceil(JSON.stringify({ system: r.system, messages: r.messages, tools: r.tools }).length / 4),
    0,
  );

async function vmAndCallOverhead(): Promise<void> {
  const { invoker, context } = kernel();
  const call = (name: string, args: unknown, id: string) => invoker.invoke({ id, name, args }, context);
  const empty = { source: 'async function run() { return 1; }' };
  const loop = {
    source: 'async function run(ctx) { for (let i = 0; i < 1000; i++) await ctx.tool("noop", {}); return "done"; }',
    limits: { max_tool_calls: 1000 },
  };
  await timeEach(50, (i) => call('program', empty, `w${i}`));
  await timeEach(2000, (i) => call('noop', {}, `wn${i}`));
  gc();
  const noop = await timeEach(20_000, (i) => call('noop', {}, `n${i}`));
  const programs = await timeEach(300, (i) => call('program', empty, `p${i}`));
  const loops = await timeEach(20, (i) => call('program', loop, `l${i}`));
  const r = await call('program', loop, 'check');
  if (!r.ok) throw new Error(`program failed: ${r.output}`);
  const vm = median(programs) - median(noop);
  const perCtx = (median(loops) - median(programs)) / 1000;
  console.log(`program: VM start and ctx-call overhead (Node ${process.version})`);
  console.log(`  governed no-op call           median ${fmt(median(noop) * 1000, 1)} µs`);
  console.log(
    `  program returning at once     median ${fmt(median(programs), 2)} ms  (VM start + teardown ≈ ${fmt(vm, 2)} ms)`,
  );
  console.log(`  program with 1,000 ctx calls  median ${fmt(median(loops), 1)} ms`);
  console.log(
    `  per ctx.tool call             ${fmt(perCtx * 1000, 1)} µs  (direct governed call ${fmt(median(noop) * 1000, 1)} µs; ctx adds ${fmt((perCtx - median(noop)) * 1000, 1)} µs)`,
  );
}

const text = 'src/auth/policy.rs:42: PermissionPolicy::evaluate(&self, call) -> Decision '; // ~80 characters a hit

async function session(turns: ScriptedTurn[]) {
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [createTestToolPack().pack],
    permissions: { defaultDecision: 'allow' },
    toolBudget: 1000,
    persistence: 'memory',
  });
  const s = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-bench-')), {});
  return { model, s };
}

async function programVsModel(): Promise<void> {
  const N = 30;
  const rounds = 15; // a run allows 32 transitions: 2 prompts of 15 tool rounds each
  const modelTurns = (): ScriptedTurn[] => {
    const turns: ScriptedTurn[] = [];
    for (let p = 0; p < N / rounds; p++) {
      for (let i = 0; i < rounds; i++)
        turns.push({ tool_calls: [{ id: `c${p}_${i}`, name: 'echo', args: { text, times: 5 } }] });
      turns.push({ text: 'Collected.' });
    }
    return turns;
  };
  const script = `async function run(ctx) { const out = []; for (let i = 0; i < ${N}; i++) out.push((await ctx.tool('echo', { text: ${JSON.stringify(text)}, times: 5 })).output.length); return { calls: out.length, chars: out.reduce((a, b) => a + b, 0) }; }`;
  const programTurns = (): ScriptedTurn[] => [
    { tool_calls: [{ id: 'p', name: 'program', args: { source: script, limits: { max_tool_calls: N } } }] },
    { text: 'Collected.' },
  ];
  const wall: { model: number[]; program: number[] } = { model: [], program: [] };
  const tokens = { model: 0, program: 0 };
  for (let round = 0; round < 7; round++) {
    {
      const { model, s } = await session(modelTurns());
      const t0 = performance.now();
      for (let p = 0; p < N / rounds; p++) {
        const r = await s.send(`collect part ${p}`);
        if (r.status !== 'completed' || r.toolCalls !== rounds)
          throw new Error(`model run ${r.status} with ${r.toolCalls} tool calls`);
      }
      wall.model.push(performance.now() - t0);
      tokens.model = tokensOf(model.requests);
      await s.close();
    }
    {
      const { model, s } = await session(programTurns());
      const t0 = performance.now();
      const r = await s.send('collect');
      if (r.status !== 'completed' || !String(model.requests[1]?.messages.at(-1)?.content).includes(`"calls": ${N}`))
        throw new Error(`program run ${r.status}`);
      wall.program.push(performance.now() - t0);
      tokens.program = tokensOf(model.requests);
      await s.close();
    }
  }
  wall.model.shift();
  wall.program.shift();
  console.log(
    `program: ${N} tool calls in one program vs ${N} model-driven calls (scripted model, no model latency, median of 6)`,
  );
  console.log(
    `  model-driven  ${fmt(median(wall.model), 1)} ms  ${tokens.model.toLocaleString('en')} tokens sent in ${N + N / rounds} requests`,
  );
  console.log(
    `  program       ${fmt(median(wall.program), 1)} ms  ${tokens.program.toLocaleString('en')} tokens sent in 2 requests (${fmt(tokens.model / tokens.program, 1)}x fewer)`,
  );
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  await vmAndCallOverhead();
  await programVsModel();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
