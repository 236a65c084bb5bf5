// Benchmarks of @a3s-code/effect (issue: foundation). Goals: fold 1,000,000 facts in < 2 s and
// < 1 GB; append + next transition at 100,000 facts costs at most 1.5x what it costs at 1,000.
// The peer is the seed's reference approach: re-fold the whole log at every step.
import { performance } from 'node:perf_hooks';
import {
  advance,
  createHarness,
  drafts,
  encodeFact,
  type Fact,
  FactLog,
  fold,
  Folder,
  parseLog,
} from '@a3s-code/effect';
import { fmt, gc, median, peakRssMiB } from './util.js';

/** A realistic session: each turn is a prompt, a tool round of two calls, and an answer. */
function* session(n: number): Generator<Fact> {
  let seq = 0;
  let turn = 0;
  const fact = (type: string, key: string, cause: string | null, payload: unknown): Fact => ({
    seq: ++seq,
    type,
    key,
    cause,
    payload,
  });
  while (seq < n) {
    turn++;
    const calls = [
      { id: `a${turn}`, name: 'read', args: { file_path: `src/file-${turn % 97}.ts` }, needs_confirmation: false },
      { id: `b${turn}`, name: 'grep', args: { pattern: 'TODO', path: 'src' }, needs_confirmation: false },
    ];
    const batch = [
      fact('user.message', `user:${turn}`, null, { text: `Task number ${turn}: tidy the module.`, source: 'user' }),
      fact('model.turn', `model-turn:${turn}:0`, `infer:${turn}:0`, {
        decision: { kind: 'tool', calls },
        usage: { input_tokens: 900, output_tokens: 60 },
      }),
      fact('tool.result', `tool-result:${turn}:0:a${turn}`, `tool:${turn}:0:a${turn}`, {
        tool_call_id: `a${turn}`,
        name: 'read',
        ok: true,
        output: 'export const x = 1;\n'.repeat(4),
        exit_code: 0,
      }),
      fact('tool.result', `tool-result:${turn}:0:b${turn}`, `tool:${turn}:0:b${turn}`, {
        tool_call_id: `b${turn}`,
        name: 'grep',
        ok: true,
        output: 'src/a.ts:3: // TODO',
        exit_code: 0,
      }),
      fact('model.turn', `model-turn:${turn}:1`, `infer:${turn}:1`, {
        decision: { kind: 'text', text: 'Done: the module is tidy.' },
        usage: { input_tokens: 1000, output_tokens: 20 },
      }),
    ];
    for (const f of batch) if (f.seq <= n) yield f;
  }
}

async function foldMillion(): Promise<void> {
  const N = 1_000_000;
  gc();
  const rss0 = peakRssMiB();
  const t0 = performance.now();
  const state = fold(session(N));
  const ms = performance.now() - t0;
  const peak = peakRssMiB();
  console.log(
    `fold ${N.toLocaleString()} facts (generated, incremental Folder): ${fmt(ms, 0)} ms, ${fmt(N / ms / 1000, 2)} M facts/s, peak RSS ${fmt(peak, 0)} MiB (${fmt(peak - rss0, 0)} MiB over start); phase ${state.phase}, ${state.view.messages.length} messages`,
  );

  // Peer: just JSON-decoding the same facts, the least any reader of the log pays.
  const lines: string[] = [];
  for (const f of session(N)) lines.push(encodeFact(f));
  const text = `${lines.join('\n')}\n`;
  lines.length = 0;
  gc();
  let t = performance.now();
  let count = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    JSON.parse(text.slice(start, nl));
    count++;
    start = nl + 1;
  }
  const jsonMs = performance.now() - t;
  t = performance.now();
  const parsed = parseLog(text);
  const parseMs = performance.now() - t;
  t = performance.now();
  fold(parsed.facts);
  const foldParsedMs = performance.now() - t;
  console.log(
    `peer: JSON.parse of the same ${count.toLocaleString()} lines (${fmt(text.length / 2 ** 20, 0)} MiB): ${fmt(jsonMs, 0)} ms`,
  );
  console.log(
    `parseLog (validating) ${fmt(parseMs, 0)} ms + fold of the parsed facts ${fmt(foldParsedMs, 0)} ms; peak RSS now ${fmt(peakRssMiB(), 0)} MiB`,
  );
}

/** A log of `n` facts and a folder in sync with it. */
function prepared(n: number): { log: FactLog; folder: Folder } {
  const log = new FactLog(session(n));
  const folder = new Folder();
  for (const f of log.facts) folder.apply(f);
  return { log, folder };
}

/** One step of a run: the host appends a prompt, then the next transition (infer) runs. */
async function stepCost(n: number, mode: 'incremental' | 'refold', iterations: number): Promise<number> {
  const { log, folder } = prepared(n);
  const harness = createHarness();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const turn = 1_000_000 + i;
    const t0 = performance.now();
    log.append([{ type: 'user.message', key: `bench-user:${i}`, payload: { text: 'next', source: 'user' } }], null);
    if (mode === 'incremental') {
      await advance({
        log,
        harness,
        folder,
        execute: async (tr) => [
          drafts.modelTurn(turn, tr.kind === 'infer' ? tr.cycle : 0, {
            decision: { kind: 'text', text: 'ok' },
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        ],
      });
    } else {
      // The reference implementation: fold the whole log again to find the next transition.
      const state = fold(log.facts);
      const next = harness.enabled(state).find((t) => !log.hasCause(t.key))!;
      log.append(
        [
          drafts.modelTurn(turn, 0, {
            decision: { kind: 'text', text: 'ok' },
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        ],
        next.key,
      );
      fold(log.facts);
    }
    samples.push(performance.now() - t0);
  }
  return median(samples) * 1000;
}

async function stepScaling(): Promise<void> {
  const small = await stepCost(1_000, 'incremental', 3000);
  const large = await stepCost(100_000, 'incremental', 3000);
  console.log(
    `append + next transition (incremental): ${fmt(small, 2)} µs at 1,000 facts, ${fmt(large, 2)} µs at 100,000 facts: ratio ${fmt(large / small, 2)}x (goal <= 1.5x)`,
  );
  const peerSmall = await stepCost(1_000, 'refold', 200);
  const peerLarge = await stepCost(100_000, 'refold', 10);
  console.log(
    `peer, re-fold every step (seed reference): ${fmt(peerSmall, 1)} µs at 1,000 facts, ${fmt(peerLarge, 1)} µs at 100,000 facts: ratio ${fmt(peerLarge / peerSmall, 1)}x`,
  );
}

await foldMillion();
await stepScaling();
