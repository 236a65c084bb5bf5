// Issue 17, log rows: `parseLog` of 1,000,000 lines against `JSON.parse` of every line, and
// open + resume of a 100,000-fact log against `fs.promises.readFile` + `JSON.parse` of every
// line (thrown away, and kept). Each pair runs in this one process, which side first alternating pair by pair; the
// figures are the medians of each side and the median of the pair-by-pair ratios.
// BENCH_RUNS sets the number of pairs (default 10); BENCH_ONLY=parse|open runs one row.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, defineTool, defineToolPack, type LlmClient, type LlmStreamEvent } from '@a3s-code/core';
import { drafts, effectLogPath, encodeFact, type Fact, FactLog, parseLog } from '@a3s-code/effect';
import { z } from 'zod';
import { fmt, gc, median } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const ONLY = process.env.BENCH_ONLY;

/** Milliseconds of CPU this process used (all threads, so the collector's helpers count too). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Runs `ours` and `peer` alternately RUNS times after one warm-up each; prints one row: the
 * wall-clock medians and pair-by-pair ratio, and the same ratio in CPU time, which a shared,
 * loaded machine disturbs far less than wall time.
 */
async function paired(label: string, peerLabel: string, ours: () => unknown, peer: () => unknown): Promise<void> {
  await ours();
  await peer();
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  const cpu: number[] = [];
  const timed = async (fn: () => unknown): Promise<[number, number]> => {
    gc();
    const t0 = performance.now();
    const c0 = cpuMs();
    await fn();
    return [performance.now() - t0, cpuMs() - c0];
  };
  for (let i = 0; i < RUNS; i++) {
    // Which side goes first alternates pair by pair.
    const first = await timed(i % 2 === 0 ? ours : peer);
    const second = await timed(i % 2 === 0 ? peer : ours);
    const [[x, cx], [y, cy]] = i % 2 === 0 ? [first, second] : [second, first];
    a.push(x);
    b.push(y);
    r.push(x / y);
    cpu.push(cx / cy);
  }
  console.log(
    `${label}: ${fmt(median(a), 0)} ms   ${peerLabel}: ${fmt(median(b), 0)} ms   ratio ${fmt(median(r), 2)}x (median of ${RUNS} pairs; min ${fmt(Math.min(...r), 2)}x, max ${fmt(Math.max(...r), 2)}x)   CPU-time ratio ${fmt(median(cpu), 2)}x (min ${fmt(Math.min(...cpu), 2)}x, max ${fmt(Math.max(...cpu), 2)}x)`,
  );
}

/** JSON.parse of every line of `text`: the least any reader of the log pays. */
function jsonEveryLine(text: string): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    JSON.parse(text.slice(start, nl));
    count++;
    start = nl + 1;
  }
  return count;
}

/**
 * JSON.parse of every line, keeping the values: what any reader that hands the facts back pays
 * before it checks anything (the throw-away peer's objects die young; these live on).
 */
function jsonEveryLineKept(text: string): unknown[] {
  const out: unknown[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    out.push(JSON.parse(text.slice(start, nl)));
    start = nl + 1;
  }
  return out;
}

/** A session-like log: per turn a prompt, a tool call, its result, and the answer. */
function sessionLog(n: number): FactLog {
  const log = new FactLog();
  for (let turn = 1; log.length < n; turn++) {
    log.append([{ type: 'user.message', key: `u${turn}`, payload: { text: `task ${turn}`, source: 'user' } }], null);
    const call = {
      id: `c${turn}`,
      name: 'noop',
      args: { file_path: `src/f${turn % 97}.ts` },
      needs_confirmation: false,
    };
    log.append(
      [
        drafts.modelTurn(turn, 0, {
          decision: { kind: 'tool', calls: [call] },
          usage: { input_tokens: 900, output_tokens: 30 },
        }),
      ],
      `infer:${turn}:0`,
    );
    log.append(
      [drafts.toolResult({ turn, cycle: 0, call }, { ok: true, output: 'x'.repeat(80), exit_code: 0 })],
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
  return log;
}

function linesOf(facts: readonly Fact[]): string {
  let text = '';
  for (const f of facts) text += `${encodeFact(f)}\n`;
  return text;
}

if (!ONLY || ONLY === 'parse') {
  const text = linesOf(sessionLog(1_000_000).facts);
  console.log(`parseLog row: 1,000,000 lines, ${fmt(text.length / 2 ** 20, 0)} MiB`);
  await paired(
    'parseLog',
    'JSON.parse per line',
    () => parseLog(text),
    () => jsonEveryLine(text),
  );
  await paired(
    'parseLog',
    'JSON.parse per line, values kept',
    () => parseLog(text),
    () => jsonEveryLineKept(text),
  );
}

if (!ONLY || ONLY === 'open') {
  const noop = defineTool({
    name: 'noop',
    description: 'Does nothing.',
    tier: 'read',
    input: z.object({}).passthrough(),
    execute: async () => ({ output: '', exitCode: 0 }),
  });
  const model: LlmClient = {
    provider: 'bench',
    model: 'idle',
    capabilities: {
      forcedToolChoice: false,
      strictJsonSchema: false,
      jsonMode: false,
      nonStreaming: false,
      reasoning: false,
      parallelToolCalls: false,
    },
    async *stream(): AsyncIterable<LlmStreamEvent> {
      yield { type: 'text_delta', delta: 'done' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  const agent = await Agent.create({
    model,
    tools: [defineToolPack({ name: 'bench', version: '1.0.0', tools: [noop] })],
    permissions: { defaultDecision: 'allow' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-open-'));
  mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
  const file = join(dir, effectLogPath('big'));
  const text = linesOf(sessionLog(100_000).facts);
  writeFileSync(file, text);
  console.log(`open + resume row: 100,000 facts, ${fmt(Buffer.byteLength(text) / 2 ** 20, 1)} MiB`);
  const openResume = async (): Promise<void> => {
    const session = await agent.session(dir, { sessionId: 'big' });
    const r = await session.resumeRun();
    if (r.steps !== 0) throw new Error('expected a quiescent log');
    await session.close();
  };
  await paired('open + resume', 'readFile + JSON.parse per line', openResume, async () =>
    jsonEveryLine(await readFile(file, 'utf8')),
  );
  await paired('open + resume', 'readFile + JSON.parse per line, values kept', openResume, async () =>
    jsonEveryLineKept(await readFile(file, 'utf8')),
  );
  rmSync(dir, { recursive: true, force: true });
}
