// `a3s serve --framing content-length`: LSP-style `Content-Length` frames in both directions (what
// vscode-jsonrpc's stream reader and writer speak), byte-counted for multi-byte UTF-8, several
// frames in one chunk and one frame split across chunks, a bad header block answered with a
// parse error while serving goes on.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo } from './kit.js';

/** Cuts `Content-Length` frames out of `data`; returns the bodies parsed and the rest. */
function frames(data: Buffer): { messages: Record<string, unknown>[]; rest: Buffer } {
  const messages: Record<string, unknown>[] = [];
  let rest: Buffer = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const length = Number(/Content-Length: (\d+)/.exec(rest.subarray(0, end).toString())![1]);
    if (rest.length < end + 4 + length) break;
    messages.push(JSON.parse(rest.subarray(end + 4, end + 4 + length).toString('utf8')));
    rest = rest.subarray(end + 4 + length);
  }
  return { messages, rest };
}

const frame = (message: unknown): Buffer => {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
};

describe('a3s serve --framing content-length', () => {
  it('speaks Content-Length frames both ways', async () => {
    const dir = tempRepo();
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const child = spawn(process.execPath, [A3S, 'serve', '--framing', 'content-length'], { cwd: dir, env });
    let out: Buffer = Buffer.alloc(0);
    const got: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (d: Buffer) => {
      const r = frames(Buffer.concat([out, d]));
      out = r.rest;
      got.push(...r.messages);
      for (const w of waiters.splice(0)) w();
    });
    const until = (f: (m: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const check = (): void => {
          const m = got.find(f);
          if (m) resolve(m);
          else waiters.push(check);
        };
        check();
      });
    try {
      const model = `scripted:${scriptFile([{ text: 'Grüße, 世界.' }])}`;
      const open = frame({
        jsonrpc: '2.0',
        id: 2,
        method: 'session/open',
        params: { workspace: dir, model, sessionId: 'f1' },
      });
      child.stdin.write(
        Buffer.concat([
          frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
          Buffer.from('X-Nonsense: 1\r\n\r\n'),
          open.subarray(0, 10),
        ]),
      );
      await new Promise((r) => setTimeout(r, 100));
      child.stdin.write(open.subarray(10));
      expect(await until((m) => m.id === 1)).toMatchObject({ result: { capabilities: { framing: 'content-length' } } });
      expect(await until((m) => m.id === null)).toMatchObject({
        error: { code: -32700, message: expect.stringContaining('Content-Length') },
      });
      expect(await until((m) => m.id === 2)).toMatchObject({ result: { sessionId: 'f1' } });
      child.stdin.write(
        frame({ jsonrpc: '2.0', id: 3, method: 'session/send', params: { sessionId: 'f1', prompt: 'grüß mich' } }),
      );
      const result = await until((m) => m.method === 'run/result');
      expect(result).toMatchObject({ params: { status: 'completed', text: 'Grüße, 世界.' } });
      expect(got.find((m) => m.method === 'event')).toMatchObject({
        params: { type: 'agent_start', payload: { prompt: 'grüß mich' } },
      });
      child.stdin.end();
      expect(await new Promise((r) => child.on('exit', r))).toBe(0);
      expect(out.length).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
