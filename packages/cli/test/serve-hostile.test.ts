// `a3s serve` driven by a hostile client through a real child process: bytes that are not UTF-8,
// lines over the message limit, oversized batches, deep nesting, ids of odd types, params of the
// wrong type for every method, workspaces that are not folders, session ids shaped like paths,
// overlapping sends, resumes of runs the log does not have open, answers nobody asked for. After
// each one the server still answers a valid request, and the session's fact log still replays.
import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';
import { type Served, servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

/** Still serving: `initialize` is answered. */
async function stillServes(s: Served): Promise<void> {
  expect(await s.call('initialize')).toMatchObject({ protocolVersion: 1 });
}

const METHOD_NAMES = [
  'initialize',
  'session/open',
  'session/send',
  'session/interrupt',
  'session/steer',
  'confirmation/answer',
  'question/answer',
  'session/tools',
  'session/close',
  'session/list',
  'session/resume',
];

describe('a3s serve: a hostile client', () => {
  it('bytes that are not UTF-8, a line over the limit, an oversized batch: parse or request errors, and serving goes on', async () => {
    const s = serve(tempRepo(), ['--max-message-bytes', '4096']);
    let from = s.messages.length;
    s.bytes(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":"utf","method":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('"}\n'),
      ]),
    );
    expect((await s.nullError(from)).error).toMatchObject({
      code: -32700,
      message: expect.stringContaining('not valid UTF-8'),
    });
    await stillServes(s);

    // A 1 MB line, written with a valid request after it in the same write: the long one is skipped
    // without being answered as a request, the next one is answered.
    from = s.messages.length;
    const name = 'x'.repeat(1_000_000);
    s.bytes(
      Buffer.from(
        `{"jsonrpc":"2.0","id":"big","method":"initialize","params":{"clientInfo":{"name":"${name}"}}}\n{"jsonrpc":"2.0","id":"after","method":"session/list"}\n`,
      ),
    );
    expect((await s.nullError(from)).error).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/over the limit of 4096 bytes .*--max-message-bytes/),
    });
    expect(await s.waitFor((m) => m.id === 'after', from)).toMatchObject({ result: { sessions: [] } });
    expect(s.messages.some((m) => m.id === 'big')).toBe(false);
    // Just under the limit is a message.
    const fits = await s.request('initialize', { clientInfo: { name: 'y'.repeat(3900) } });
    expect(fits.result).toMatchObject({ protocolVersion: 1 });

    from = s.messages.length;
    s.line(`[${Array(1001).fill('1').join(',')}]`);
    expect((await s.nullError(from)).error).toMatchObject({
      code: -32600,
      message: 'Invalid Request: a batch of 1001 requests; the most is 1000 (none was handled)',
    });
    await stillServes(s);
    expect(s.invalid).toEqual([]);
  });

  it('100k levels of nesting, odd ids, a line of just over 32 MiB, params of the wrong type for every method', async () => {
    const s = serve(tempRepo());
    let from = s.messages.length;
    s.line(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(await s.waitFor((m) => Array.isArray(m), from)).toMatchObject([{ error: { code: -32600 } }]);
    s.line(
      `{"jsonrpc":"2.0","id":"deep","method":"session/list","params":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    );
    expect((await s.waitFor((m) => m.id === 'deep', from)).error).toMatchObject({
      code: -32602,
      data: { field: 'params.a' },
    });
    for (const id of ['{"a":1}', '[1]', 'true', '1e400', '2.5', '9007199254740993']) {
      from = s.messages.length;
      s.line(`{"jsonrpc":"2.0","id":${id},"method":"initialize"}`);
      expect((await s.nullError(from)).error).toMatchObject({ code: -32600, data: { field: 'id' } });
    }
    const longId = 'i'.repeat(100_000);
    s.line(JSON.stringify({ jsonrpc: '2.0', id: longId, method: 'session/list' }));
    s.line('{"jsonrpc":"2.0","id":-7,"method":"session/list"}');
    await s.waitFor((m) => m.id === longId);
    expect(await s.waitFor((m) => m.id === -7)).toMatchObject({ result: { sessions: [] } });
    for (const method of METHOD_NAMES) {
      for (const params of [[1], { sessionId: 7, bogus: true }]) {
        const r = await s.request(method, params);
        expect(r.error, `${method} ${JSON.stringify(params)}`).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/^Invalid params: params/),
          data: { field: expect.stringMatching(/^params/) },
        });
      }
    }

    from = s.messages.length;
    s.bytes(Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    s.line('');
    expect((await s.nullError(from)).error?.message).toContain('over the limit of 33554432 bytes');
    await stillServes(s);
    expect(s.invalid).toEqual([]);
  });

  it('LOG-09: a workspace that is not a folder names params.workspace; session ids shaped like paths keep their logs in the log folder', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'file.txt'), 'a file\n');
    const s = serve(dir);
    const model = `scripted:${scriptFile([{ text: 'Done.' }])}`;
    for (const [workspace, problem] of [
      ['missing', 'does not exist'],
      ['file.txt', 'is not a folder'],
    ] as const) {
      const r = await s.request('session/open', { workspace, model });
      expect(r.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`params.workspace: '${join(dir, workspace)}' ${problem}; allowed:`),
        data: { field: 'params.workspace' },
      });
    }
    for (const sessionId of ['../../escape', join(dir, 'abs-escape')]) {
      const opened = await s.call<{ logPath: string }>('session/open', { workspace: '.', model, sessionId });
      expect(dirname(opened.logPath)).toBe(join(dir, '.a3s', 'effect-log'));
    }
    expect(await s.end()).toBe(0);
    expect(existsSync(resolve(dir, '.a3s', 'effect-log', '../../escape.jsonl'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.a3s', '.git', 'file.txt', 'src', 'test']);
    expect(s.invalid).toEqual([]);
  });

  it('ADM-03: overlapping sends, resumes of runs the log does not have open, answers nobody asked for and an attachment through a symlink are typed errors; the log replays', async () => {
    const dir = tempRepo();
    symlinkSync('/etc/hostname', join(dir, 'out-link.txt'));
    const s = serve(dir);
    const model = `scripted:${scriptFile([
      { text: 'Waiting.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'sleep 0.2; echo slept' } }] },
      { text: 'Done.' },
    ])}`;
    const opened = await s.call<{ logPath: string }>('session/open', {
      workspace: '.',
      model,
      sessionId: 'h1',
      yolo: true,
    });
    // Two sends at once (pipelined, no wait between them): the second is refused, the first runs.
    const first = s.messages.length;
    s.line(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'send-1',
        method: 'session/send',
        params: { sessionId: 'h1', prompt: 'one' },
      }),
    );
    s.line(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'send-2',
        method: 'session/send',
        params: { sessionId: 'h1', prompt: 'two' },
      }),
    );
    const runId = (await s.waitFor((m) => m.id === 'send-1', first)).result!.runId as string;
    expect((await s.waitFor((m) => m.id === 'send-2', first)).error).toMatchObject({
      code: -32000,
      data: { code: 'SESSION_BUSY' },
    });
    expect(await s.runResult(runId)).toMatchObject({ status: 'completed', text: 'Done.' });

    const unknownRun = await s.request('session/resume', { sessionId: 'h1', runId: 'run-nope' });
    expect(unknownRun.error).toMatchObject({
      code: -32000,
      message: expect.stringContaining(
        "NOTHING_TO_RESUME: params.runId: run 'run-nope' is not open in this session's log",
      ),
      data: { code: 'NOTHING_TO_RESUME', field: 'params.runId' },
    });
    const pastRun = await s.request('session/resume', { sessionId: 'h1', runId });
    // The same typed error as the SDK's resumeRun: a finished run is named as ended, with how.
    expect(pastRun.error).toMatchObject({
      message: expect.stringContaining(`NOTHING_TO_RESUME: params.runId: run '${runId}' already ended (completed)`),
      data: { code: 'NOTHING_TO_RESUME', details: { run_id: runId, reason: 'ended', ended: 'completed' } },
    });
    for (const [method, params] of [
      ['confirmation/answer', { sessionId: 'h1', toolId: 'b1', approved: true }],
      ['question/answer', { sessionId: 'h1', questionId: 'q-nope', answer: 'x' }],
    ] as const) {
      expect((await s.request(method, params)).error).toMatchObject({
        code: -32000,
        data: { code: 'INVALID_TRANSITION' },
      });
    }
    const linked = await s.call<{ runId: string }>('session/send', {
      sessionId: 'h1',
      prompt: 'read it',
      attachments: [{ type: 'file', path: 'out-link.txt' }],
    });
    expect(await s.runResult(linked.runId)).toMatchObject({
      status: 'failed',
      error: { code: 'ATTACHMENT_INVALID', message: expect.stringContaining('symbolic link') },
      text: '',
    });
    // The refused run's own agent_end says the same: its text is empty, never the previous run's 'Done.'.
    expect(s.events(linked.runId).filter((e) => e.type === 'agent_end')).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ status: 'failed', text: '' }) }),
    ]);
    await stillServes(s);
    expect(await s.end()).toBe(0);

    const replay = a3s(['replay', '--json', opened.logPath]);
    expect(replay.status).toBe(0);
    expect(replay.stdout).toContain(runId);
    expect(replay.stdout).not.toContain('run-nope');
    expect(s.invalid).toEqual([]);
  });
});
