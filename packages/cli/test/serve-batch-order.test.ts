// JSON-RPC details of `a3s serve`: a run started in a batch sends nothing before the batch's answer
// (which carries its runId), also when the batch closes the session it started the run on; `$/`
// notifications (`$/cancelRequest`, LSP's optional ones) are ignored without a word on stderr.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

describe('a3s serve: batches and $/ notifications', () => {
  it("a run started in a batch: its events and run/result come after the batch's answer", async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const model = `scripted:${scriptFile([{ text: 'Quick.' }])}`;
    await s.call('session/open', { workspace: dir, model, sessionId: 'a' });
    // The slow open keeps the batch unanswered for a while (its MCP server needs its timeout).
    const slowDir = tempRepo();
    writeFileSync(
      join(slowDir, 'a3s.config.json'),
      JSON.stringify({
        mcpServers: {
          mute: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'], connectTimeoutMs: 1000 },
        },
      }),
    );
    const from = s.messages.length;
    s.line(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'send', method: 'session/send', params: { sessionId: 'a', prompt: 'hi' } },
        {
          jsonrpc: '2.0',
          id: 'open',
          method: 'session/open',
          params: { workspace: slowDir, model, trustWorkspace: true },
        },
      ]),
    );
    const batch = await s.waitFor((m) => Array.isArray(m), from);
    const answers = batch as unknown as { id: string; result: { runId?: string } }[];
    const runId = String(answers.find((a) => a.id === 'send')?.result.runId);
    await s.runResult(runId);
    const batchAt = s.messages.indexOf(batch);
    const firstOfRun = s.messages.findIndex(
      (m, i) =>
        i >= from &&
        ((m.method === 'event' && (m.params as { metadata: { run_id: string } }).metadata.run_id === runId) ||
          (m.method === 'run/result' && m.params?.runId === runId)),
    );
    expect(firstOfRun).toBeGreaterThan(batchAt);
    expect(await s.end()).toBe(0);
  });

  it('a batch that starts a run and closes its session is answered (no deadlock); the run/result follows', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    await s.call('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
      sessionId: 'b',
    });
    const from = s.messages.length;
    s.line(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'send', method: 'session/send', params: { sessionId: 'b', prompt: 'slow' } },
        { jsonrpc: '2.0', id: 'close', method: 'session/close', params: { sessionId: 'b' } },
      ]),
    );
    const batch = await s.waitFor((m) => Array.isArray(m), from, 10_000);
    const answers = batch as unknown as { id: string; result: { runId?: string; closed?: boolean } }[];
    expect(answers.find((a) => a.id === 'close')?.result).toEqual({ closed: true });
    const runId = String(answers.find((a) => a.id === 'send')?.result.runId);
    expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
    expect(await s.end()).toBe(0);
  });

  it('$/cancelRequest and other $/ notifications are ignored silently; a $/ request is still answered', async () => {
    const s = serve(tempRepo());
    s.line(JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } }));
    s.line(JSON.stringify({ jsonrpc: '2.0', method: '$/setTrace', params: { value: 'off' } }));
    const asked = await s.request('$/nope', {});
    expect(asked.error).toMatchObject({ code: -32601 });
    expect(await s.call('session/list', {})).toEqual({ sessions: [] });
    expect(await s.end()).toBe(0);
    expect(s.stderr).toBe('');
  });
});
