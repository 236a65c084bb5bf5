// `a3s serve --framing content-length` driven by a hostile client through a real child process:
// lengths that are negative, zero, not numbers, absurdly large or over the message limit, a header
// block that never ends, a body that is not UTF-8, conflicting lengths, and a body cut off by the
// end of the input. Each is answered with a parse error naming what was wrong, and the next frame
// is answered as usual.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { A3S, tempRepo } from './kit.js';

type Msg = { id?: unknown; error?: { code: number; message: string }; result?: Record<string, unknown> };

const frame = (message: unknown): Buffer => {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
};

describe('a3s serve --framing content-length: a hostile client', () => {
  it('bad lengths, an endless header block, a body that is not UTF-8 or is cut off: parse errors, and serving goes on', async () => {
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const child = spawn(
      process.execPath,
      [A3S, 'serve', '--framing', 'content-length', '--max-message-bytes', '4096'],
      {
        cwd: tempRepo(),
        env,
      },
    );
    let out: Buffer = Buffer.alloc(0);
    const got: Msg[] = [];
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (d: Buffer) => {
      out = Buffer.concat([out, d]);
      for (;;) {
        const end = out.indexOf('\r\n\r\n');
        if (end < 0) break;
        const length = Number(/Content-Length: (\d+)/.exec(out.subarray(0, end).toString())![1]);
        if (out.length < end + 4 + length) break;
        got.push(JSON.parse(out.subarray(end + 4, end + 4 + length).toString('utf8')) as Msg);
        out = out.subarray(end + 4 + length);
      }
      for (const w of waiters.splice(0)) w();
    });
    const until = (f: (m: Msg) => boolean) =>
      new Promise<Msg>((resolve) => {
        const check = (): void => {
          const m = got.find(f);
          if (m) resolve(m);
          else waiters.push(check);
        };
        check();
      });
    let id = 0;
    /** Writes `bad` then a valid request; returns the parse errors answered in between. */
    const after = async (bad: Buffer): Promise<string[]> => {
      const from = got.length;
      const mine = ++id;
      child.stdin.write(Buffer.concat([bad, frame({ jsonrpc: '2.0', id: mine, method: 'session/list' })]));
      expect(await until((m) => m.id === mine)).toMatchObject({ result: { sessions: [] } });
      return got
        .slice(from)
        .filter((m) => m.id === null)
        .map((m) => {
          expect(m.error?.code).toBe(-32700);
          return m.error!.message;
        });
    };
    try {
      expect(await after(Buffer.from('Content-Length: -5\r\n\r\n'))).toEqual([
        'Parse error: Content-Length must be a whole number of bytes (0 or more), got "-5"',
      ]);
      expect(await after(Buffer.from('Content-Length: 99999999999999999999\r\n\r\n'))).toEqual([
        'Parse error: Content-Length must be a whole number of bytes (0 or more), got "99999999999999999999"',
      ]);
      // An empty body is no message: a parse error, not silence (a client would wait for an answer).
      expect(await after(Buffer.from('Content-Length: 0\r\n\r\n'))).toEqual([
        'Parse error: an empty body (Content-Length: 0); allowed: one JSON-RPC message per frame',
      ]);
      expect(await after(Buffer.from('Content-Length: 3\r\ncontent-length: 4\r\n\r\n'))).toEqual([
        'Parse error: a header block with different Content-Length values: 3, 4',
      ]);
      // Over the limit: the declared body is skipped as it arrives, even when it looks like a request.
      const big = Buffer.from(
        JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'session/list', pad: 'x'.repeat(5000) }),
      );
      expect(await after(Buffer.concat([Buffer.from(`Content-Length: ${big.length}\r\n\r\n`), big]))).toEqual([
        `Parse error: a message of ${big.length} bytes or more is over the limit of 4096 bytes (a3s serve --max-message-bytes); it was skipped`,
      ]);
      expect(got.some((m) => m.id === 'big')).toBe(false);
      const endless = await after(Buffer.concat([Buffer.alloc(20_000, 'h'), Buffer.from('\r\n\r\n')]));
      expect(endless).toEqual([expect.stringContaining('a header block longer than 8192 bytes')]);
      const notUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]);
      expect(await after(Buffer.concat([Buffer.from('Content-Length: 5\r\n\r\n'), notUtf8]))).toEqual([
        'Parse error: the message is not valid UTF-8 (5 bytes); messages must be UTF-8 text',
      ]);
      child.stdin.end(Buffer.from('Content-Length: 100\r\n\r\n{"jsonrpc"'));
      expect(await until((m) => m.id === null && /ended inside/.test(m.error?.message ?? ''))).toMatchObject({
        error: {
          message:
            'Parse error: the input ended inside a message: 10 of the 100 bytes its Content-Length declared arrived',
        },
      });
      expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
