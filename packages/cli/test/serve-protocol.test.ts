// `a3s serve`'s JSON-RPC surface against a careless client: batches that address sessions keep
// each session's order, unknown fields and union mismatches name what is allowed, and the
// message limit is announced so a client can refuse an oversized request itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

/** A workspace whose MCP server never answers: opening a session there takes its 1 s connect timeout. */
function slowWorkspace(): string {
  const dir = tempRepo();
  writeFileSync(
    join(dir, 'a3s.config.json'),
    JSON.stringify({
      mcpServers: {
        mute: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'], connectTimeoutMs: 1000 },
      },
    }),
  );
  return dir;
}

describe('a3s serve: the protocol', () => {
  it('a batch request joins the queue of its session: a send after a pipelined open waits for it, an interrupt does not wait for it', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    const from = s.messages.length;
    s.line(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'open',
        method: 'session/open',
        params: {
          workspace: slowWorkspace(),
          sessionId: 'slow-one',
          trustWorkspace: true,
          model: `scripted:${scriptFile([{ text: 'Hi.' }])}`,
        },
      }),
    );
    s.line(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'send', method: 'session/send', params: { sessionId: 'slow-one', prompt: 'hi' } },
        { jsonrpc: '2.0', id: 'stop', method: 'session/interrupt', params: { sessionId, runId } },
      ]),
    );
    const batch = (await s.waitFor((m) => Array.isArray(m), from)) as unknown as { id: string; result?: unknown }[];
    expect(batch.map((m) => m.id)).toEqual(['send', 'stop']);
    expect(batch[0]).toMatchObject({ result: { runId: expect.any(String) } });
    expect(batch[1]).toMatchObject({ result: { interrupted: true } });
    // The interrupt was not held up by the other session's open: the interrupted run settled before it.
    const opened = await s.waitFor((m) => m.id === 'open', from);
    const cancelled = await s.waitFor((m) => m.method === 'run/result' && m.params?.runId === runId, from);
    expect(cancelled.params).toMatchObject({ status: 'cancelled' });
    expect(s.messages.indexOf(cancelled)).toBeLessThan(s.messages.indexOf(opened));
    const sent = (batch[0] as { result: { runId: string } }).result.runId;
    expect(await s.runResult(sent)).toMatchObject({ status: 'completed', text: 'Hi.' });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('a message after a byte-order mark is read; a megabyte method name is clipped in the error, not echoed', async () => {
    const s = serve(tempRepo());
    s.line(`\ufeff${JSON.stringify({ jsonrpc: '2.0', id: 'bom', method: 'session/list' })}`);
    expect(await s.waitFor((m) => m.id === 'bom')).toMatchObject({ result: expect.anything() });
    const method = `x${'y'.repeat(1_000_000)}`;
    s.line(JSON.stringify({ jsonrpc: '2.0', id: 'long', method }));
    const answer = await s.waitFor((m) => m.id === 'long');
    expect(answer.error).toMatchObject({ code: -32601, message: expect.stringContaining('(1000001 characters)') });
    expect(JSON.stringify(answer).length).toBeLessThan(2000);
    expect(await s.end()).toBe(0);
  });

  it('an unknown field names the fields allowed there; an attachment of no known kind names the kinds; a field of another form names that form; a blank prompt is called blank', async () => {
    const s = serve(tempRepo());
    const cases: [string, unknown, string, string][] = [
      [
        'session/send',
        { sessionId: 's', prompt: 'hi', colour: 'red' },
        'params.colour',
        'unknown field; allowed: sessionId, prompt, attachments',
      ],
      [
        'session/open',
        { workspace: '.', permissions: { allow: ['read'], allowed: ['bash'] } },
        'params.permissions.allowed',
        'unknown field; allowed: allow, ask, deny',
      ],
      ['session/list', { sessionId: 's' }, 'params.sessionId', 'unknown field; allowed: no fields'],
      [
        'session/send',
        { sessionId: 's', prompt: 'hi', attachments: [{ type: 'video', path: 'a.mp4' }] },
        'params.attachments.0.type',
        'Invalid input: expected one of "image", "file"',
      ],
      [
        'session/send',
        { sessionId: 's', prompt: 'hi', attachments: [{ type: 'image', path: 'a.png', data: 'iVBO' }] },
        'params.attachments.0.data',
        'unknown field; allowed: type, path, mediaType, name',
      ],
      [
        'session/send',
        { sessionId: 's', prompt: '   ' },
        'params.prompt',
        'is empty or only whitespace: the prompt (the task for the model) must have text',
      ],
      [
        'session/send',
        { sessionId: 's', prompt: '' },
        'params.prompt',
        'is empty or only whitespace: the prompt (the task for the model) must have text',
      ],
      [
        'session/steer',
        { sessionId: 's', text: ' \n' },
        'params.text',
        'is empty or only whitespace: a steer message must have text',
      ],
    ];
    for (const [method, params, field, problem] of cases) {
      const r = await s.request(method, params);
      expect(r.error, `${method} ${JSON.stringify(params)}`).toMatchObject({
        code: -32602,
        message: `Invalid params: ${field}: ${problem}`,
        data: { field },
      });
    }
    // Without a form of another kind in the way, the union's own words stay (vibe: true, false or {...}).
    expect((await s.request('session/open', { workspace: '.', vibe: 'on' })).error).toMatchObject({
      message: expect.stringContaining('params.vibe: must be true, false or { enabled?, tiers?, maxWorkers? }'),
    });
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });
});
