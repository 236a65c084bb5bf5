// `a3s serve` driven through a real child process with scripted models: requests and their
// responses, the run's events as notifications, parks answered by the client, interrupts by run
// id, two sessions at once, bad input answered while serving goes on, stdin EOF, and a server
// killed mid-run whose session is resumed by the next server from its log. Every line the server
// prints is checked against the shipped JSON Schema.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { a3s, runMain, scriptFile, tempRepo, TINY_PNG } from './kit.js';
import { type Envelope, servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

const ECHO_TURNS = [
  { text: 'Running it.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo served' } }] },
  { text: 'It printed served.' },
];

type Opened = { sessionId: string; logPath: string; state: { phase: string; runStatus: string | null } };

describe('a3s serve', () => {
  it('ARCH-05: open, send (run id at once), events in order as a3s run --json prints them, a confirmation answered by the client', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const init = await s.call('initialize', { protocolVersion: 1, clientInfo: { name: 'test' } });
    expect(init).toMatchObject({ protocolVersion: 1, serverInfo: { name: 'a3s' } });
    const opened = await s.call<Opened>('session/open', {
      workspace: '.',
      model: `scripted:${scriptFile(ECHO_TURNS)}`,
    });
    expect(opened.logPath).toBe(join(dir, '.a3s', 'effect-log', `${opened.sessionId}.jsonl`));
    const sent = await s.request('session/send', { sessionId: opened.sessionId, prompt: 'run echo' });
    const runId = sent.result!.runId as string;
    const responseAt = s.messages.indexOf(sent);
    expect(s.messages.slice(0, responseAt).some((m) => m.method === 'event')).toBe(false);
    const parked = await s.runResult(runId);
    expect(parked).toMatchObject({
      status: 'parked',
      parked: { kind: 'confirm', toolId: 'b1', toolName: 'bash', args: { command: 'echo served' } },
    });
    expect(s.events(runId).at(-1)).toMatchObject({ type: 'confirmation_required', payload: { tool_id: 'b1' } });
    const answered = await s.call('confirmation/answer', {
      sessionId: opened.sessionId,
      toolId: 'b1',
      approved: true,
    });
    expect(answered).toEqual({ runId });
    expect(await s.runResult(runId, 2)).toMatchObject({
      status: 'completed',
      text: 'It printed served.',
      toolCalls: 1,
    });
    const events = s.events(runId);
    for (const e of events) parseEventEnvelopeV1(e);
    expect(events.map((e) => e.metadata.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type).filter((t) => !t.endsWith('_delta'))).toEqual([
      'agent_start',
      'turn_start',
      'turn_end',
      'confirmation_required',
      'agent_start',
      'tool_start',
      'tool_end',
      'turn_start',
      'turn_end',
      'agent_end',
    ]);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({
      toolName: 'bash',
      payload: { output: 'served\n' },
    });
    // The same envelope fields as `a3s run --json` (which answers no confirmation, so runs yolo here).
    const cli = a3s([
      'run',
      '--json',
      '--yolo',
      '--model',
      `scripted:${scriptFile(ECHO_TURNS)}`,
      '--cwd',
      dir,
      'run echo',
    ]);
    const printed = cli.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Envelope);
    const shape = (e: Envelope) => [e.type, Object.keys(e).sort(), Object.keys(e.payload).sort()];
    const served = events.filter((e) => !['confirmation_required'].includes(e.type));
    expect(served.slice(-4).map(shape)).toEqual(printed.slice(-4).map(shape));
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('PARK-09: a question parks the run; question/answer appends the answer and the run goes on', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const turns = [
      { question: { question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] } },
      { text: 'Blue it is.' },
    ];
    const { sessionId } = await s.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile(turns)}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'pick' });
    const parked = await s.runResult(runId);
    expect(parked).toMatchObject({ status: 'parked', parked: { kind: 'question', question: 'Which colour?' } });
    const questionId = (parked.parked as { questionId: string }).questionId;
    expect(s.events(runId).at(-1)).toMatchObject({
      type: 'user_question',
      payload: { question_id: questionId, options: ['red', 'blue'] },
    });
    const wrong = await s.request('question/answer', { sessionId, questionId: 'q-other', answer: 'blue' });
    expect(wrong.error).toMatchObject({ code: -32000 });
    expect(await s.call('question/answer', { sessionId, questionId, answer: 'blue' })).toEqual({ runId });
    expect(await s.runResult(runId, 2)).toMatchObject({ status: 'completed', text: 'Blue it is.' });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('STEER-06: session/interrupt cancels only the run it names; a steer is refused for another run', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    expect(await s.call('session/steer', { sessionId, text: 'hurry', runId: 'run-other' })).toMatchObject({
      accepted: false,
      reason: 'wrong_run',
    });
    expect(await s.call('session/interrupt', { sessionId, runId: 'run-other' })).toEqual({ interrupted: false });
    expect(await s.call('session/interrupt', { sessionId, runId, reason: 'stop' })).toEqual({ interrupted: true });
    expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
    expect(s.events(runId).at(-1)).toMatchObject({ type: 'agent_end', payload: { status: 'cancelled' } });
    expect(await s.call('session/interrupt', { sessionId, runId })).toEqual({ interrupted: false });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('ADM-03: two sessions at once, each single-flight; list, tools and close', async () => {
    const s = serve(tempRepo());
    const slow = (text: string) => scriptFile([{ delay_ms: 600, text }]);
    const a = await s.call<Opened>('session/open', { workspace: tempRepo(), model: `scripted:${slow('From A.')}` });
    const b = await s.call<Opened>('session/open', { workspace: tempRepo(), model: `scripted:${slow('From B.')}` });
    const runA = (await s.call<{ runId: string }>('session/send', { sessionId: a.sessionId, prompt: 'a' })).runId;
    const runB = (await s.call<{ runId: string }>('session/send', { sessionId: b.sessionId, prompt: 'b' })).runId;
    const busy = await s.request('session/send', { sessionId: a.sessionId, prompt: 'again' });
    expect(busy.error).toMatchObject({ code: -32000, data: { code: 'SESSION_BUSY', runId: runA } });
    expect(String(busy.error?.message)).toContain('wait for its run/result, or stop it with session/interrupt');
    const list = await s.call<{ sessions: { sessionId: string; state: { activeRunId: string | null } }[] }>(
      'session/list',
    );
    expect(list.sessions.map((x) => [x.sessionId, x.state.activeRunId])).toEqual([
      [a.sessionId, runA],
      [b.sessionId, runB],
    ]);
    expect(await s.runResult(runA)).toMatchObject({ status: 'completed', text: 'From A.' });
    expect(await s.runResult(runB)).toMatchObject({ status: 'completed', text: 'From B.' });
    expect(new Set(s.events(runA).map((e) => e.metadata.session_id))).toEqual(new Set([a.sessionId]));
    expect(new Set(s.events(runB).map((e) => e.metadata.session_id))).toEqual(new Set([b.sessionId]));
    const tools = await s.call<{ tools: { name: string; tier: string }[] }>('session/tools', {
      sessionId: a.sessionId,
    });
    expect(tools.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'bash', tier: 'exec' })]));
    expect(await s.call('session/close', { sessionId: a.sessionId })).toEqual({ closed: true });
    const gone = await s.request('session/tools', { sessionId: a.sessionId });
    expect(gone.error).toMatchObject({ code: -32001, data: { field: 'params.sessionId' } });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it("the requests of one session wait for each other, not for another session's slow session/open", async () => {
    const dir = tempRepo();
    const slowDir = tempRepo();
    // An MCP server that never answers `initialize`: opening a session there waits for its connect timeout.
    writeFileSync(
      join(slowDir, 'a3s.config.json'),
      JSON.stringify({
        mcpServers: {
          mute: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'], connectTimeoutMs: 1000 },
        },
      }),
    );
    const s = serve(dir);
    const { sessionId } = await s.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    const opening = s.request('session/open', {
      workspace: slowDir,
      model: `scripted:${scriptFile([{ text: 'hi' }])}`,
      trustWorkspace: true,
    });
    const interrupted = await s.request('session/interrupt', { sessionId, runId });
    expect(interrupted.result).toEqual({ interrupted: true });
    const opened = await opening;
    expect(opened.result).toMatchObject({ workspace: slowDir });
    expect(s.messages.indexOf(interrupted)).toBeLessThan(s.messages.indexOf(opened));
    expect(s.stderr).toContain("MCP server 'mute'");
    expect(await s.end()).toBe(0);
  });

  it('session/open with no model anywhere names params.model, not an SDK call', async () => {
    const s = serve(tempRepo());
    const r = await s.request('session/open', { workspace: tempRepo() });
    expect(r.error).toMatchObject({ code: -32000, data: { code: 'MODEL_NOT_CONFIGURED', field: 'params.model' } });
    expect(String(r.error?.message)).toContain('pass params.model');
    expect(String(r.error?.message)).not.toContain('Agent.create');
    expect(await s.end()).toBe(0);
  });

  it('malformed JSON, bad requests, unknown methods and bad params get JSON-RPC errors; serving goes on', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    s.line('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect((await s.waitFor((m) => m.error?.code === -32700)).id).toBe(null);
    s.line(JSON.stringify({ jsonrpc: '1.0', id: 'x', method: 'initialize' }));
    expect(await s.waitFor((m) => m.id === 'x')).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('jsonrpc: must be "2.0"'), data: { field: 'jsonrpc' } },
    });
    expect((await s.request('session/frobnicate', {})).error).toMatchObject({
      code: -32601,
      message: expect.stringContaining("'session/frobnicate'"),
    });
    expect((await s.request('session/open', { model: 'scripted:x.json' })).error).toMatchObject({
      code: -32602,
      data: { field: 'params.workspace' },
    });
    expect((await s.request('session/open', { workspace: dir, colour: 'red' })).error).toMatchObject({
      code: -32602,
      data: { field: 'params.colour' },
    });
    expect((await s.request('session/send', { sessionId: 'nope', prompt: '' })).error).toMatchObject({
      code: -32602,
      data: { field: 'params.prompt' },
    });
    expect((await s.request('question/answer', { sessionId: 's', questionId: 'q' })).error).toMatchObject({
      code: -32602,
      data: { field: 'params.answer' },
    });
    expect((await s.request('initialize', { protocolVersion: 2 })).error).toMatchObject({
      code: -32602,
      data: { field: 'params.protocolVersion' },
    });
    expect(
      (await s.request('session/open', { workspace: join(dir, 'missing'), model: 'scripted:x.json' })).error,
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('params.workspace'),
      data: { field: 'params.workspace' },
    });
    s.line(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'b1', method: 'session/list' },
        { jsonrpc: '2.0', method: 'initialize' },
        7,
      ]),
    );
    const batch = await s.waitFor((m) => Array.isArray(m));
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'b1', result: { sessions: [] } },
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
    ]);
    expect(await s.call('session/list')).toEqual({ sessions: [] });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('closing stdin closes every session: the active run is interrupted and reported, the logs unlocked', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId, logPath } = await s.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    await s.waitFor((m) => m.method === 'event' && (m.params as Envelope).type === 'turn_start');
    expect(await s.end()).toBe(0);
    expect(s.messages.at(-1)).toMatchObject({ method: 'run/result', params: { runId, status: 'cancelled' } });
    expect(existsSync(`${logPath}.lock`)).toBe(false);
    const facts = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; payload: { status?: string } });
    expect(facts.filter((f) => f.type === 'run.ended').map((f) => f.payload.status)).toEqual(['cancelled']);
  });
});

describe('a3s serve: the shipped schema and help', () => {
  it('dist/serve.schema.json is the schema the server validates with, and names every method', async () => {
    const { serveJsonSchema, SERVE_SCHEMA_FILE } = await import('../src/serve/schema.js');
    const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'dist', SERVE_SCHEMA_FILE), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(serveJsonSchema())));
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    expect(pkg.exports['./serve.schema.json']).toBe(`./dist/${SERVE_SCHEMA_FILE}`);
    const { METHODS } = await import('../src/serve/protocol.js');
    for (const method of Object.keys(METHODS)) {
      expect(shipped.$defs).toHaveProperty([`${method}.request`]);
      expect(shipped.$defs).toHaveProperty([`${method}.response`]);
    }
    expect(shipped.$defs).toHaveProperty(['event.notification']);
  });

  it('session/send takes attachments (a workspace image, a text file); a path out of the workspace is a typed error and nothing is logged', async () => {
    const dir = tempRepo();
    const png = TINY_PNG;
    writeFileSync(join(dir, 'shot.png'), png);
    writeFileSync(join(dir, 'app.log'), 'GET / 500\n');
    const s = serve(dir);
    await s.call('initialize', { protocolVersion: 1 });
    const opened = await s.call<Opened>('session/open', {
      workspace: '.',
      model: `scripted:${scriptFile([{ text: 'Seen both.' }])}`,
    });
    const refused = await s.request('session/send', {
      sessionId: opened.sessionId,
      prompt: 'look',
      attachments: [{ type: 'file', path: '../outside.log' }],
    });
    // The run id comes at once; the refusal is the run's result, before anything is written.
    const refusedRun = await s.runResult(refused.result!.runId as string);
    expect(refusedRun).toMatchObject({
      status: 'failed',
      error: { code: 'ATTACHMENT_INVALID', message: expect.stringContaining('climbs above the workspace root') },
    });
    expect(existsSync(opened.logPath) ? readFileSync(opened.logPath, 'utf8') : '').not.toMatch(/user\.message/);
    const sent = await s.call<{ runId: string }>('session/send', {
      sessionId: opened.sessionId,
      prompt: 'why does the page fail?',
      attachments: [
        { type: 'image', path: 'shot.png' },
        { type: 'file', path: 'app.log' },
      ],
    });
    expect(await s.runResult(sent.runId)).toMatchObject({ status: 'completed', text: 'Seen both.' });
    const prompt = readFileSync(opened.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; payload: { attachments?: { media_type: string }[] } })
      .find((f) => f.type === 'user.message');
    expect(prompt?.payload.attachments?.map((a) => a.media_type)).toEqual(['image/png', 'text/plain']);
    const bad = await s.request('session/send', {
      sessionId: opened.sessionId,
      prompt: 'x',
      attachments: [{ type: 'video', path: 'a.mp4' }],
    });
    expect(bad.error?.code).toBe(-32602);
    expect(s.invalid).toEqual([]);
  });

  it('a3s serve --help, and a stray argument is a usage error', async () => {
    expect(await runMain(['serve', '--help'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Usage: a3s serve'),
    });
    expect(await runMain(['serve', 'extra'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("unexpected argument 'extra'"),
    });
  });
});
