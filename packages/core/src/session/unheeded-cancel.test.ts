// A cancel must take effect even when what the run waits for does not listen: a host's own model
// client that ignores `request.signal` used to be read to its end, and its text turn recorded the
// run `completed` after an interrupt, an aborted signal or a close. A close whose run does not
// settle in time used to close the log with the run still open.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it, vi } from 'vitest';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { Agent, type AgentSession } from '../index.js';
import type { LlmClient, LlmRequest, LlmStreamEvent } from '../llm/llm-client.js';
import { createTestToolPack } from '../testing/index.js';

const { track } = closeAfterEach();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client that streams `count` text deltas `ms` apart and never looks at `request.signal`. */
class DeafClient implements LlmClient {
  readonly provider = 'deaf';
  readonly model = 'deaf-1';
  readonly capabilities = {
    forcedToolChoice: false,
    strictJsonSchema: false,
    jsonMode: false,
    nonStreaming: false,
    reasoning: false,
    parallelToolCalls: false,
  };
  /** Deltas handed out, and whether the stream was stopped (its `finally` ran). */
  yielded = 0;
  stopped = false;
  constructor(
    private readonly count: number,
    private readonly ms: number,
  ) {}
  async *stream(_request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    try {
      for (let i = 0; i < this.count; i++) {
        await sleep(this.ms);
        this.yielded++;
        yield { type: 'text_delta', delta: `d${i} ` };
      }
      yield { type: 'finish', reason: 'stop' };
    } finally {
      this.stopped = true;
    }
  }
}

async function openDeaf(client: LlmClient) {
  const ws = workspace();
  const agent = await Agent.create({
    model: client,
    tools: [createTestToolPack().pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  return { session: await agent.session(ws.dir), dir: ws.dir };
}

/** The fact types (with a run.ended's status) the log file holds. */
const onDisk = (dir: string, s: AgentSession) =>
  parseLog(readFileSync(join(dir, '.a3s', 'effect-log', `${s.sessionId}.jsonl`), 'utf8')).facts.map((f) =>
    f.type === 'run.ended' ? `run.ended:${(f.payload as { status: string }).status}` : f.type,
  );

describe('a cancel the model client does not heed', () => {
  for (const via of ['interrupt', 'signal', 'close'] as const) {
    it(`STEER-04: ${via} during a text turn ends the run cancelled at once, and the client is asked to stop`, async () => {
      const client = new DeafClient(40, 50);
      const { session, dir } = await track(openDeaf(client));
      const controller = new AbortController();
      const started = Date.now();
      const run = session.send('go', { signal: controller.signal });
      await sleep(200);
      let closing: Promise<void> | undefined;
      if (via === 'interrupt') expect(session.interrupt()).toBe(true);
      else if (via === 'signal') controller.abort();
      else closing = session.close();
      const result = await run;
      await closing;
      expect(result.status).toBe('cancelled');
      // Not the 2 s the client takes to finish its turn.
      expect(Date.now() - started).toBeLessThan(1_200);
      expect(onDisk(dir, session)).toEqual(['run.started', 'user.message', 'run.ended:cancelled']);
      // The abandoned stream stops at its next event.
      await vi.waitFor(() => expect(client.stopped).toBe(true), { timeout: 500 });
      expect(client.yielded).toBeLessThan(10);
    });
  }
});

describe('a cancel after the response is whole', () => {
  it('STEER-04: a turn whose finish came before the cancel is recorded as given; the run still ends cancelled', async () => {
    const client: LlmClient = {
      provider: 'deaf',
      model: 'deaf-1',
      capabilities: new DeafClient(0, 0).capabilities,
      async *stream() {
        yield { type: 'text_delta', delta: 'all of it' };
        yield { type: 'finish', reason: 'stop' };
        // The stream is not closed for a long while after its finish.
        await sleep(5_000);
      },
    };
    const { session, dir } = await track(openDeaf(client));
    const run = session.send('go');
    await sleep(100);
    expect(session.interrupt()).toBe(true);
    expect(await run).toMatchObject({ status: 'cancelled', text: 'all of it' });
    expect(onDisk(dir, session)).toEqual(['run.started', 'user.message', 'model.turn', 'run.ended:cancelled']);
  });
});

describe('a close whose run does not settle in time', () => {
  it('records the run ended (cancelled) before the log closes; the run settles cancelled when it goes on', async () => {
    let entered!: () => void;
    const inHook = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    // A stop hook that ignores the abort: the run stays in it after the close.
    const stop = () => {
      entered();
      return new Promise<undefined>((r) => (release = () => r(undefined)));
    };
    const { session, dir } = await track(open([{ text: 'done' }], { hooks: { stop: [stop] } }));
    const run = session.send('go');
    await inHook;
    // The close's wait for the run (5 s) is passed on a fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let closed = false;
      const closing = session.close().then(() => (closed = true));
      for (let i = 0; i < 400 && !closed; i++) {
        await vi.advanceTimersByTimeAsync(50);
        await new Promise((r) => setImmediate(r));
      }
      await closing;
    } finally {
      vi.useRealTimers();
    }
    expect(onDisk(dir, session)).toEqual(['run.started', 'user.message', 'model.turn', 'run.ended:cancelled']);
    release();
    expect(await run).toMatchObject({ status: 'cancelled', text: 'done' });
    expect(onDisk(dir, session).at(-1)).toBe('run.ended:cancelled');
  });
});
