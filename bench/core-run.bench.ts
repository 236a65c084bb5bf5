// Benchmarks of the run driver (issue: Core II). Run-loop overhead per transition with the
// scripted model and a no-op tool, against the bare `advance` loop of `effect` with trivial
// executors; and the time to open and resume a 100,000-fact log (goal < 1 s), against reading
// and JSON-parsing the same file.
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { advance, createHarness, drafts, effectLogPath, encodeFact, FactLog } from '@a3s-code/effect';
import { Agent, defineTool, defineToolPack, type LlmClient, type LlmStreamEvent } from '@a3s-code/core';
import { z } from 'zod';
import { fmt, median } from './util.js';

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  tier: 'read',
  input: z.object({}),
  execute: async () => ({ output: '', exitCode: 0 }),
});
const pack = defineToolPack({ name: 'bench', version: '1.0.0', tools: [noop] });

/** A model that calls `noop` `rounds` times, then answers; it decides from the request alone. */
function loopModel(rounds: number): LlmClient {
  return {
    provider: 'bench',
    model: 'loop',
    capabilities: {
      forcedToolChoice: false,
      strictJsonSchema: false,
      jsonMode: false,
      nonStreaming: false,
      reasoning: false,
      parallelToolCalls: true,
    },
    async *stream(request): AsyncIterable<LlmStreamEvent> {
      const round = request.messages.filter((m) => m.role === 'assistant').length % (rounds + 1);
      if (round < rounds) {
        const id = `c${request.messages.length}`;
        yield { type: 'tool_call_end', index: 0, call: { id, name: 'noop', args: {} } };
        yield { type: 'finish', reason: 'tool_calls' };
      } else {
        yield { type: 'text_delta', delta: 'done' };
        yield { type: 'finish', reason: 'stop' };
      }
    },
  };
}

async function runLoop(): Promise<void> {
  const rounds = 15; // 15 tool rounds + the answer = 31 transitions per send
  const agent = await Agent.create({
    model: loopModel(rounds),
    tools: [pack],
    permissions: { defaultDecision: 'allow' },
    toolBudget: 1000,
  });
  const samples: number[] = [];
  for (const persistence of ['memory', 'file'] as const) {
    const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-bench-')), { persistence });
    samples.length = 0;
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      const r = await session.send(`task ${i}`);
      samples.push(((performance.now() - t0) * 1000) / r.steps);
    }
    await session.close();
    console.log(
      `session run loop (${persistence} log${persistence === 'file' ? ', fsync per transition' : ''}): ${fmt(median(samples.slice(10)), 1)} µs per transition (median of 50 sends of 31 transitions)`,
    );
  }
  // Peer: the bare engine loop with trivial executors.
  const bare: number[] = [];
  for (let i = 0; i < 60; i++) {
    const log = new FactLog();
    log.append([{ type: 'user.message', key: 'u', payload: { text: 'go', source: 'user' } }], null);
    let n = 0;
    const t0 = performance.now();
    const r = await advance({
      log,
      harness: createHarness({ tool_budget: 1000 }),
      execute: async (t) => {
        if (t.kind === 'tool') return [drafts.toolResult(t.pending, { ok: true, output: '', exit_code: 0 })];
        if (t.kind !== 'infer') throw new Error('unexpected');
        const decision =
          n++ < rounds
            ? { kind: 'tool' as const, calls: [{ id: `c${n}`, name: 'noop', args: {}, needs_confirmation: false }] }
            : { kind: 'text' as const, text: 'done' };
        return [drafts.modelTurn(t.turn, t.cycle, { decision, usage: { input_tokens: 0, output_tokens: 0 } })];
      },
    });
    bare.push(((performance.now() - t0) * 1000) / r.steps);
  }
  console.log(`peer, bare advance() loop with trivial executors: ${fmt(median(bare.slice(10)), 1)} µs per transition`);
}

async function openAndResume(): Promise<void> {
  const N = 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-open-'));
  const log = new FactLog();
  for (let turn = 1; log.length < N; turn++) {
    log.append([{ type: 'user.message', key: `u${turn}`, payload: { text: `task ${turn}`, source: 'user' } }], null);
    log.append(
      [
        drafts.modelTurn(turn, 0, {
          decision: { kind: 'tool', calls: [{ id: `c${turn}`, name: 'noop', args: {}, needs_confirmation: false }] },
          usage: { input_tokens: 900, output_tokens: 30 },
        }),
      ],
      `infer:${turn}:0`,
    );
    log.append(
      [
        drafts.toolResult(
          { turn, cycle: 0, call: { id: `c${turn}`, name: 'noop', args: {}, needs_confirmation: false } },
          { ok: true, output: 'x'.repeat(80), exit_code: 0 },
        ),
      ],
      `tool:${turn}:0:c${turn}`,
    );
    log.append(
      [
        drafts.modelTurn(turn, 1, {
          decision: { kind: 'text', text: 'done' },
          usage: { input_tokens: 1000, output_tokens: 5 },
        }),
      ],
      `infer:${turn}:1`,
    );
  }
  mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
  const file = join(dir, effectLogPath('big'));
  writeFileSync(file, log.facts.map((f) => `${encodeFact(f)}\n`).join(''));
  const agent = await Agent.create({ model: loopModel(0), tools: [pack], permissions: { defaultDecision: 'allow' } });
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const session = await agent.session(dir, { sessionId: 'big' });
    const r = await session.resumeRun();
    times.push(performance.now() - t0);
    if (r.steps !== 0) throw new Error('expected a quiescent log');
    await session.close();
  }
  const peer: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) JSON.parse(line);
    peer.push(performance.now() - t0);
  }
  console.log(
    `open + resume a ${log.length.toLocaleString()}-fact log (${fmt(readFileSync(file).length / 2 ** 20, 1)} MiB): ${fmt(median(times), 0)} ms (median of 5; goal < 1000 ms)`,
  );
  console.log(`peer, readFile + JSON.parse of every line: ${fmt(median(peer), 0)} ms`);
}

await runLoop();
await openAndResume();
