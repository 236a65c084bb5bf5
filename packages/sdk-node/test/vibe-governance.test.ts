// Vibe mode: what is on the surface and who decides. The five tools exist only in vibe mode and
// run unasked (read tier); each worker's own tool calls meet the session's deny rules, approvals
// and plan mode; bad input is a typed error naming the argument and what is allowed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfirmationRequest, EventEnvelopeV1, LlmClient } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the crash test's child process.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { tempRepo } from './kit.js';

const VIBE_TOOLS = ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'];
const routing = (name: string, scripts: Record<string, ScriptedTurn[]>): LlmClient =>
  new RoutingModel(name, scripts) as LlmClient;

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(options: SessionOptions = {}, model: LlmClient = new ScriptedLlmClient([])) {
  const dir = tempRepo();
  const session = await (await Agent.create({ model })).session(dir, options);
  opened.push(session);
  return { dir, session };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
const json = (output: string) => JSON.parse(output) as Record<string, unknown>;
/** The facts of worker `n`'s log. */
function workerFacts(dir: string, n: number) {
  const file = readdirSync(join(dir, '.a3s', 'effect-log')).find((f) => f.endsWith(`.worker-${n}.jsonl`));
  return readFileSync(join(dir, '.a3s', 'effect-log', file!), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
}
/** The tool results of worker `n`'s log: `[name, ok, output]`. */
const workerResults = (dir: string, n: number) =>
  workerFacts(dir, n)
    .filter((f) => f.type === 'tool.result')
    .map((f) => [f.payload.name, f.payload.ok, f.payload.output] as const);

describe('vibe: surface and governance', () => {
  it('VIBE-01: the five tools are registered only in vibe mode with the roster attached, and follow setVibeMode', async () => {
    const { session: plain } = await open();
    for (const t of VIBE_TOOLS) expect(plain.toolNames()).not.toContain(t);
    expect(plain.resources().map((r) => r.capability)).not.toContain('resource.vibe');
    expect(plain.vibeMode).toBe(false);
    expect(() => plain.setVibeMode(true)).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION' }));

    const { session } = await open({ vibe: { enabled: false } });
    expect(session.resources().find((r) => r.capability === 'resource.vibe')?.state).toBe('attached');
    for (const t of VIBE_TOOLS) expect(session.toolNames()).not.toContain(t);
    for (const bad of ['false', 1, null])
      expect(() => session.setVibeMode(bad as never)).toThrow(
        expect.objectContaining({ code: 'SESSION_CONFIGURATION', field: 'on' }),
      );
    expect(session.vibeMode).toBe(false);
    session.setVibeMode(true);
    expect(session.vibeMode).toBe(true);
    expect(session.toolNames()).toEqual(expect.arrayContaining(VIBE_TOOLS));
    session.setVibeMode(false);
    for (const t of VIBE_TOOLS) expect(session.toolNames()).not.toContain(t);

    const { session: on } = await open({ vibe: true });
    expect(on.toolNames()).toEqual(expect.arrayContaining(VIBE_TOOLS));
  });

  it('VIBE-02: the five tools are read tier and run unasked; the worker’s own write goes to the approver, which refuses it', async () => {
    const asked: ConfirmationRequest[] = [];
    const model = routing('lead', {
      conduct: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'write-it', label: 'writer' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        // The worker's only write was refused: it changed nothing, so the lead's run ends on its answer.
        { text: 'done' },
      ],
      'write-it': [
        { tool_calls: [call('x1', 'write', { file_path: 'OUT.md', content: 'x' })] },
        { text: 'the write was refused' },
      ],
    });
    const { dir, session } = await open(
      {
        vibe: true,
        onConfirm: (request) => {
          asked.push(request);
          return { approved: false, reason: 'not today' };
        },
      },
      model,
    );
    const tiers = new Map(session.toolInfo().map((t) => [t.name, t.tier]));
    for (const t of VIBE_TOOLS) expect(tiers.get(t)).toBe('read');
    await session.send('conduct');
    expect(asked.map((r) => r.toolName)).toEqual(['write']);
    expect(existsSync(join(dir, 'OUT.md'))).toBe(false);
    expect(workerResults(dir, 1)).toEqual([]);
    expect(workerFacts(dir, 1).find((f) => f.type === 'confirmation.answered')?.payload).toMatchObject({
      approved: false,
      reason: 'not today',
    });
  });

  it('VIBE-02: a tool the session’s deny rule refuses stays refused inside a worker, even under YOLO', async () => {
    const model = routing('lead', {
      conduct: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'clean-up', label: 'cleaner' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        // The worker's command was denied: it changed nothing, so the lead's run ends on its answer.
        { text: 'done' },
      ],
      'clean-up': [
        { tool_calls: [call('x1', 'bash', { command: 'rm -f README.md' })] },
        { text: 'could not remove it' },
      ],
    });
    const { dir, session } = await open(
      { vibe: true, governance: { yolo: true }, permissions: { deny: ['Bash(rm:*)'] } },
      model,
    );
    const events: string[] = [];
    const stream = session.stream('conduct');
    for await (const ev of stream) if (ev.type === 'worker_progress') events.push(String(ev.payload.type));
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
    expect(workerResults(dir, 1)).toEqual([['bash', false, expect.stringMatching(/denied|Bash\(rm/i)]]);
    expect(events).toContain('permission_denied');
  });

  it('VIBE-02: a worker spawned in plan mode is in plan mode: the write tier is not even offered to it', async () => {
    const model = routing('lead', {
      conduct: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'plan-it', label: 'planner', tier: 'good' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { text: 'done' },
      ],
      'plan-it': [{ text: 'a plan' }],
    });
    const { session } = await open({ vibe: true, governance: { mode: 'plan' } }, model);
    expect(session.toolNames()).toContain('vibe_spawn');
    await session.send('conduct');
    const workerRequest = (model as unknown as { clients: Map<string, ScriptedLlmClient> }).clients.get('plan-it')!
      .requests[0]!;
    const offered = (workerRequest.tools ?? []).map((t) => t.name);
    expect(offered).toContain('read');
    expect(offered).not.toContain('write');
    expect(offered).not.toContain('vibe_spawn'); // a worker never starts workers
  });
});

describe('vibe: bad input', () => {
  const slow = (briefs: string[]) =>
    routing('lead', Object.fromEntries(briefs.map((b) => [b, [{ delay_ms: 60_000, text: 'never' }]])));

  it('VIBE-03/VIBE-08: a wrong tier, an empty or blank brief and an unknown argument are INVALID_TOOL_ARGS naming the field', async () => {
    const { session } = await open({ vibe: true });
    const tier = await session.tool('vibe_spawn', { brief: 'b', label: 'l', tier: 'medium' });
    expect(tier.error?.code).toBe('INVALID_TOOL_ARGS');
    expect(tier.output).toMatch(/tier/);
    expect(tier.output).toMatch(/fast/);
    expect(tier.output).toMatch(/good/);
    const empty = await session.tool('vibe_spawn', { brief: '', label: 'l' });
    expect(empty.error?.code).toBe('INVALID_TOOL_ARGS');
    expect(empty.output).toMatch(/brief/);
    const blank = await session.tool('vibe_spawn', { brief: '   ', label: 'l' });
    expect(blank.output).toContain('brief must not be blank');
    const extra = await session.tool('vibe_list', { all: true });
    expect(extra.error?.code).toBe('INVALID_TOOL_ARGS');
  });

  it('VIBE-04/VIBE-05/VIBE-06: an unknown worker_id is VIBE_UNKNOWN_WORKER listing the known workers', async () => {
    const { session } = await open({ vibe: true }, slow(['b1']));
    const none = await session.tool('vibe_wait', { worker_id: 'worker-9' });
    expect(none.error?.code).toBe('VIBE_UNKNOWN_WORKER');
    expect(none.output).toContain('none has been spawned yet');
    expect(json((await session.tool('vibe_spawn', { brief: 'b1', label: 'one' })).output).worker_id).toBe('worker-1');
    for (const [name, args] of [
      ['vibe_wait', { worker_id: 'worker-9' }],
      ['vibe_send', { worker_id: 'w1', message: 'more' }],
      ['vibe_kill', { worker_id: 'worker-2' }],
    ] as const) {
      const r = await session.tool(name, args);
      expect(r.error?.code, name).toBe('VIBE_UNKNOWN_WORKER');
      expect(r.output).toContain(`${name}: worker_id '${args.worker_id}'`);
      expect(r.output).toContain('known workers: worker-1');
    }
  });

  it('VIBE-03: past maxWorkers running at once, vibe_spawn is VIBE_TOO_MANY_WORKERS naming the cap and the running workers', async () => {
    const { session } = await open({ vibe: { maxWorkers: 2 } }, slow(['b1', 'b2', 'b3']));
    await session.tool('vibe_spawn', { brief: 'b1', label: 'one' });
    await session.tool('vibe_spawn', { brief: 'b2', label: 'two' });
    const third = await session.tool('vibe_spawn', { brief: 'b3', label: 'three' });
    expect(third.error?.code).toBe('VIBE_TOO_MANY_WORKERS');
    expect(third.output).toContain('(2)');
    expect(third.output).toContain('running: worker-1, worker-2');
    expect(json((await session.tool('vibe_kill', { worker_id: 'worker-1' })).output).status).toBe('killed');
    expect(json((await session.tool('vibe_spawn', { brief: 'b3', label: 'three' })).output).worker_id).toBe('worker-3');
  });

  it('VIBE-05: vibe_wait with timeout_seconds returns early with the current state; worker events reach host listeners', async () => {
    const { session } = await open({ vibe: true }, slow(['b1']));
    const seen: EventEnvelopeV1[] = [];
    session.core.onHostEvent((e) => seen.push(e));
    await session.tool('vibe_spawn', { brief: 'b1', label: 'slow' });
    const started = Date.now();
    const r = json((await session.tool('vibe_wait', { worker_id: 'worker-1', timeout_seconds: 0.3 })).output);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(r).toMatchObject({ status: 'running', done: false, timed_out: true });
    expect(seen.find((e) => e.type === 'worker_spawned')?.payload).toMatchObject({
      worker_id: 'worker-1',
      label: 'slow',
      tier: 'fast',
    });
  });

  it('VIBE-05: vibe_wait on a worker that failed returns its error (exit 1), and worker_failed reaches the host', async () => {
    const { session } = await open({ vibe: true }, routing('lead', { 'no script left': [] }));
    const seen: EventEnvelopeV1[] = [];
    session.core.onHostEvent((e) => seen.push(e));
    await session.tool('vibe_spawn', { brief: 'no script left', label: 'doomed' });
    const r = await session.tool('vibe_wait', { worker_id: 'worker-1' });
    expect(r.exitCode).toBe(1);
    expect(json(r.output)).toMatchObject({ status: 'failed', done: true, error: { code: 'SCRIPT_EXHAUSTED' } });
    expect(seen.find((e) => e.type === 'worker_failed')?.payload).toMatchObject({
      worker_id: 'worker-1',
      error: { code: 'SCRIPT_EXHAUSTED' },
    });
  });

  it('VIBE-08: the SDK refuses a bad vibe option, naming the key and what is allowed', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    const dir = tempRepo();
    await expect(agent.session(dir, { vibe: { maxWorkers: 0 } })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringContaining('vibe.maxWorkers'),
    });
    await expect(agent.session(dir, { vibe: { tiers: { medium: 'openai/gpt-4o' } } as never })).rejects.toMatchObject({
      message: expect.stringMatching(/vibe\.tiers\.medium.*fast and good/),
    });
    await expect(agent.session(dir, { vibe: 'yes' as never })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION' });
  });
});
