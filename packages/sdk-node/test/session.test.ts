// The SDK Session end to end on a temporary git repository: runs, events, parks and answers,
// steering, interruption, the completion gate, compaction and the surface (ARCHITECTURE §7).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent as CoreAgent } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  ModelNotConfiguredError,
  type ConfirmationManager,
  type ProjectedEventV1,
  type Session,
  type SessionOptions,
} from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** These tests are about runs, not approval: they run asked tools explicitly, under YOLO. */
async function open(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const dir = tempRepo();
  const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
  session = await agent.session(dir, { ...options, governance: { yolo: true, ...options.governance } });
  return { dir, session };
}

/** A confirmation manager nobody answers: the run parks and the host answers with confirmToolUse. */
const hostAnswers: ConfirmationManager = {
  confirm: (_r, signal) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
};

const fixTurns: ScriptedTurn[] = [
  {
    text: 'Fixing.',
    tool_calls: [
      { id: 'e1', name: 'edit', args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' } },
    ],
  },
  {
    text: 'Verifying.',
    tool_calls: [
      { id: 'v1', name: 'verify', args: { subject: 'range', commands: [{ id: 'unit', command: 'node --test' }] } },
    ],
  },
];

describe('Session', () => {
  it('send: edits, verifies through the verify tool and completes verified, with a file log', async () => {
    const { dir, session: s } = await open(fixTurns);
    const result = await s.send('Fix the failing test');
    expect(result).toMatchObject({
      status: 'completed',
      completion: 'verified',
      toolCalls: 2,
      endedBy: 'verification',
    });
    expect(result.text).toMatch(/^verification 'range': passed\n- unit \(check, required\): passed \[exit 0\]$/);
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i <= end');
    expect(s.logPath).toBe(join(dir, '.a3s', 'effect-log', `${s.sessionId}.jsonl`));
    expect(readFileSync(s.logPath!, 'utf8')).toContain('"type":"run.ended"');
    expect(s.changeLedger().digest).toMatch(/^[0-9a-f]{64}$/);
    expect(s.verificationReports()[0]?.status).toBe('passed');
    const report = await s.verifyCommands('host check', [
      { id: 'unit', kind: 'test', command: 'node --test', timeoutMs: 60_000 },
    ]);
    expect(report).toMatchObject({ status: 'passed', effect_digest: s.changeLedger().digest });
    const failing = await s.verifyCommands('must fail', [{ id: 'no', command: 'exit 4' }]);
    expect(failing.status).toBe('failed');
  });

  it('stream: projected envelopes with text and toolName, then .result', async () => {
    const { session: s } = await open([
      { text: 'Looking.', tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'README.md' } }] },
      { text: 'Done.' },
    ]);
    const events: ProjectedEventV1[] = [];
    const stream = s.stream('Read the README');
    for await (const ev of stream) events.push(ev);
    expect(events[0]?.type).toBe('agent_start');
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({
      toolName: 'read',
      tool_name: 'read',
      version: 1,
    });
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Looking.Done.');
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', text: 'Done.' });
    expect((await stream.result).status).toBe('completed');
  });

  it('confirmToolUse + resumeRun; waiveCompletion lets the unverified change complete as waived', async () => {
    const model = new ScriptedLlmClient([fixTurns[0]!, { text: 'Edited.' }, { delay_ms: 300, text: 'Done.' }]);
    session = await (await Agent.create({ model })).session(tempRepo(), {
      confirmation: hostAnswers,
      parkMode: 'return',
      permissions: { allow: ['read'] },
    });
    const s = session;
    const parked = await s.send('Fix it');
    expect(parked.status).toBe('parked');
    expect(parked.parked).toMatchObject({ kind: 'confirm', toolId: 'e1', toolName: 'edit' });
    await s.confirmToolUse('e1', true, 'looks right');
    const resumed = s.resumeRun();
    // The gate asks the model to verify (turn 3); the host waives this exact digest instead.
    while (model.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
    s.waiveCompletion(s.changeLedger().digest!, 'reviewed by hand');
    expect(await resumed).toMatchObject({ status: 'completed', completion: 'waived' });
    expect(() => s.waiveCompletion('nope', 'x')).toThrow(/digest/);
  });

  it('an unverified change cannot complete: COMPLETION_INCOMPLETE', async () => {
    const { session: s } = await open([
      fixTurns[0]!,
      { text: 'Edited.' },
      { text: 'Still edited.' },
      { text: 'Edited, really.' },
      { text: 'Done.' },
    ]);
    const err = await s.send('Fix it').catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('COMPLETION_INCOMPLETE');
  });

  it('answerQuestion parks and resumes an ask_user question', async () => {
    const { session: s } = await open(
      [
        { question: { question: 'Which file?', options: [{ label: 'a.js' }, { label: 'b.js' }] } },
        { text: 'You chose b.js.' },
      ],
      { parkMode: 'return' },
    );
    const parked = await s.send('Ask me');
    expect(parked.parked).toMatchObject({ kind: 'question', question: 'Which file?' });
    await s.answerQuestion((parked.parked as { questionId: string }).questionId, 'b.js');
    expect((await s.resumeRun()).text).toBe('You chose b.js.');
  });

  it('steer reaches the next model call; interrupt cancels a slow turn', async () => {
    const model = new ScriptedLlmClient([
      { delay_ms: 150, text: 'one', tool_calls: [{ id: 'r', name: 'read', args: { file_path: 'README.md' } }] },
      { text: 'two' },
      { delay_ms: 5_000, text: 'never' },
    ]);
    const dir = tempRepo();
    session = await (await Agent.create({ model })).session(dir, { permissions: { allow: ['read'] } });
    const s = session;
    expect(s.steer('too early').accepted).toBe(false);
    const run = s.send('go');
    await new Promise((r) => setTimeout(r, 30));
    expect(s.steer('also update the docs').accepted).toBe(true);
    await run;
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('also update the docs');
    const slow = s.send('again');
    await new Promise((r) => setTimeout(r, 50));
    expect(s.interrupt('user pressed Esc')).toBe(true);
    expect((await slow).status).toBe('cancelled');
  });

  it('STEER-06: interrupt({ runId }) for a finished run returns false and leaves the next run alone', async () => {
    const { session: s } = await open([{ text: 'first' }, { delay_ms: 5_000, text: 'never' }]);
    const first = await s.send('one');
    const slow = s.send('two');
    while (s.activeRunId === null) await new Promise((r) => setTimeout(r, 5));
    expect(s.interrupt({ runId: first.runId })).toBe(false);
    expect(s.activeRunId).not.toBe(first.runId);
    expect(s.interrupt({ runId: s.activeRunId!, reason: 'user pressed Esc' })).toBe(true);
    expect((await slow).status).toBe('cancelled');
  });

  it('surface: toolNames, toolDefinitions, toolInfo, activeTools; compact; close', async () => {
    const { session: s } = await open([{ text: 'Hi.' }, { text: 'Summary: said hi.' }]);
    expect(s.toolNames()).toEqual([
      'batch',
      'program',
      'verify',
      'generate_object',
      'read',
      'write',
      'edit',
      'patch',
      'grep',
      'glob',
      'ls',
      'bash',
      'git',
      'web_fetch',
      'web_search',
      'ast_grep',
      'ast_edit',
      'resolve',
      'lsp',
      'lsp_rename',
      'eval',
      'debug',
      'task',
      'parallel_task',
      'task_result',
      'search_skills',
      'Skill',
      'remember',
      'recall',
    ]);
    expect(s.toolDefinitions().find((d) => d.name === 'read')?.inputSchema).toMatchObject({ type: 'object' });
    const info = s.toolInfo();
    expect(info.find((t) => t.name === 'read')).toMatchObject({
      tier: 'read',
      capabilities: { readOnly: true },
      requires: ['fs.read'],
    });
    expect(info.find((t) => t.name === 'verify')).toMatchObject({
      tier: 'exec',
      capabilities: { maxParallelism: expect.any(Number) },
    });
    expect(s.activeTools()).toEqual([]);
    await s.send('hello');
    expect(await s.compact()).toMatchObject({ summaryChars: 'Summary: said hi.'.length });
    await s.close();
    await expect(s.send('after close')).rejects.toThrow(/closed/);
  });

  it('plan mode hides write and exec tools', async () => {
    const { session: s } = await open([], { governance: { mode: 'plan' } });
    expect(s.toolNames()).toEqual([
      'batch',
      'program',
      'generate_object',
      'read',
      'grep',
      'glob',
      'ls',
      'web_fetch',
      'web_search',
      'ast_grep',
      'lsp',
      'task',
      'parallel_task',
      'task_result',
      'search_skills',
      'Skill',
      'recall',
    ]);
  });
});

describe('Agent.create', () => {
  it('names the variables and the scripted alternative when no model is configured', async () => {
    const agent = await Agent.create({ env: {} });
    const err = await agent.session(tempRepo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelNotConfiguredError);
    expect((err as Error).message).toMatch(/A3S_MODEL.*OPENAI_API_KEY.*ANTHROPIC_API_KEY.*scripted:<file\.json>/);
  });

  it('resolves provider/model from the environment and reports a missing key by name', async () => {
    await expect(Agent.create({ model: 'openai/gpt-4o', env: {} })).rejects.toMatchObject({
      code: 'MODEL_CONFIGURATION',
      key: 'OPENAI_API_KEY',
    });
    const agent = await Agent.create({ env: { A3S_MODEL: 'anthropic/claude-x', ANTHROPIC_API_KEY: 'k-123456' } });
    expect(agent.model?.provider).toBe('anthropic');
    await expect(Agent.create({ model: 'scripted:/no/such/file.json' })).rejects.toMatchObject({
      code: 'INVALID_SCRIPT',
    });
  });
});

describe('bad options are refused by name before anything runs', () => {
  it('a model that is not a non-empty string or an LlmClient is a SESSION_CONFIGURATION error naming model', async () => {
    for (const model of [123, '', '   ', { provider: 'x' }, null, ['openai/gpt-4o']]) {
      await expect(Agent.create({ model: model as never, env: {} })).rejects.toMatchObject({
        code: 'SESSION_CONFIGURATION',
        message: expect.stringMatching(/model: must be 'provider\/model'.*scripted:<file\.json>.*LlmClient/),
      });
    }
  });

  it("a session's permission rules of the wrong shape are refused, not merged into letters or dropped", async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'x' }]), env: {} });
    await expect(agent.session(tempRepo(), { permissions: { deny: 'bash' as never } })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringContaining('permissions.deny'),
    });
    await expect(agent.session(tempRepo(), { permissions: 'yes' as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringContaining('permissions'),
    });
  });
});

describe('A3S_MODEL is only the fallback', () => {
  it("a bad A3S_MODEL does not fail Agent.create; a workspace config file's model wins, and a session that falls back to it fails naming it", async () => {
    const env = { A3S_MODEL: 'nope/not-a-provider' };
    // A folder the host trusts: its file's model is used.
    const agent = await Agent.create({ env, workspaceConfig: true });
    expect(agent.model).toBeUndefined();
    const configured = tempRepo();
    writeFileSync(join(configured, 'script.json'), JSON.stringify({ turns: [{ text: 'from the config model' }] }));
    writeFileSync(join(configured, 'a3s.config.json'), JSON.stringify({ model: 'scripted:script.json' }));
    const s = await agent.session(configured);
    try {
      expect((await s.send('hi')).text).toBe('from the config model');
    } finally {
      await s.close();
    }
    const err = await agent.session(tempRepo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/nope/);
  });
});

describe('delegation from the SDK', () => {
  it('TASK/INV-06: session.task runs a real child run and returns its answer; session.tasks fans out', async () => {
    const { session: s } = await open([{ text: 'child one done' }, { text: 'branch a' }, { text: 'branch b' }]);
    const one = await s.task({ agent: 'explore', description: 'look', prompt: 'Look around.' });
    expect(one).toMatchObject({ status: 'completed', text: 'child one done' });
    const many = await s.tasks([
      { agent: 'explore', description: 'a', prompt: 'Do a.' },
      { agent: 'explore', description: 'b', prompt: 'Do b.' },
    ]);
    expect(many.results.map((r) => r.status)).toEqual(['completed', 'completed']);
  });
});

describe('the tool-round cap in the Node binding', () => {
  it('BUD-08: agent.session(dir, { maxToolRounds }) caps tool rounds: the next request offers no tools', async () => {
    const read = (id: string): ScriptedTurn => ({
      tool_calls: [{ id, name: 'read', args: { file_path: 'README.md' } }],
    });
    const model = new ScriptedLlmClient([read('r1'), { text: 'answered in text' }]);
    session = await (await Agent.create({ model })).session(tempRepo(), { maxToolRounds: 1 });
    expect((await session.send('look')).text).toBe('answered in text');
    expect(model.requests[0]!.tools.length).toBeGreaterThan(0);
    expect(model.requests[1]!.tools).toEqual([]);
    await session.close();
    await expect(
      (await Agent.create({ model: new ScriptedLlmClient([]) })).session(tempRepo(), { maxToolRounds: -1 }),
    ).rejects.toThrow(/maxToolRounds: must be an integer from 0 to 10000/);
  });
});

describe('building a session', () => {
  it('BUILD-04: await agent.session(dir, options) is the one recommended, async entry: it builds what no synchronous path can', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    const dir = tempRepo();
    const pending = agent.session(dir, { sessionId: 'built', maxToolRounds: 4 });
    expect(pending).toBeInstanceOf(Promise);
    session = await pending;
    // The options are applied through the resolved configuration; the file log was opened on the way.
    expect(session.core.config).toMatchObject({
      sessionId: 'built',
      persistence: 'file',
      recipe: { max_tool_rounds: 4 },
    });
    expect(session.logPath).toBe(join(dir, '.a3s', 'effect-log', 'built.jsonl'));
    // The SDK's Agent has no other way in; core's synchronous build is refused for this very session.
    expect('sessionSync' in agent).toBe(false);
    const core = await CoreAgent.create({ model: new ScriptedLlmClient([]) });
    expect(() => core.sessionSync(tempRepo(), { sessionId: 'built' })).toThrow(
      expect.objectContaining({ code: 'ASYNC_SESSION_BUILD_REQUIRED' }),
    );
    const docs = readFileSync(join(import.meta.dirname, '..', '..', 'core', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toMatch(
      /`await agent\.session\(dir, options\)` is the way to build a session, and the recommended one/,
    );
    expect(docs).toMatch(/`agent\.sessionSync\(dir, options\)` exists only for compatibility/);
  });
});
