// `a3s replay`, `a3s sessions` and `a3s replay --web` on a session log someone replaced: a FIFO, a
// link to a device, a dangling link, a line that is not UTF-8. Each answers at once with a typed
// error naming the file (and the line), never waits, and never writes the file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { startReplayServer } from '../src/commands/replay-web.js';
import { runMain } from './kit.js';

const line = (seq: number, text = 'hello') =>
  encodeFact({ seq, type: 'user.message', key: `u${seq}`, cause: null, payload: { text, source: 'user' } });

function workspace(): { ws: string; dir: string } {
  const ws = mkdtempSync(join(tmpdir(), 'a3s-hostile-log-'));
  const dir = join(ws, '.a3s', 'effect-log');
  mkdirSync(dir, { recursive: true });
  return { ws, dir };
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('a3s replay and sessions on a replaced log', () => {
  it('a FIFO or a link to /dev/zero in place of a session log: FACT_LOG_FILE naming it, no wait', async () => {
    const { ws, dir } = workspace();
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'dangling.jsonl'));
    writeFileSync(join(dir, 'good.jsonl'), `${line(1)}\n`);
    const pipe = await runMain(['replay', '--cwd', ws, 'pipe']);
    expect(pipe.status).toBe(1);
    expect(pipe.stderr).toContain(`FACT_LOG_FILE: fact log file '${join(dir, 'pipe.jsonl')}' is a FIFO (named pipe)`);
    const zero = await runMain(['replay', '--cwd', ws, 'zero']);
    expect(zero.status).toBe(1);
    expect(zero.stderr).toContain(`'${join(dir, 'zero.jsonl')}' is a symbolic link`);
    // `a3s sessions` lists every log; the replaced ones say what they are, the good one is intact.
    const sessions = await runMain(['sessions', '--cwd', ws]);
    expect(sessions.status).toBe(0);
    expect(sessions.stdout).toMatch(/pipe .*unreadable log: .*is a FIFO/);
    expect(sessions.stdout).toMatch(/zero .*unreadable log: .*is a symbolic link/);
    expect(sessions.stdout).toMatch(/dangling .*unreadable log: .*is a symbolic link/);
    expect(sessions.stdout).toMatch(/good .*1 facts/);
    expect(sessions.stderr).toBe('');
  });

  it('a line that is not UTF-8: FACT_PARSE naming the file and the line; the file is not written', async () => {
    const { ws, dir } = workspace();
    const path = join(dir, 'bad.jsonl');
    const second = Buffer.from(line(2, 'ab'));
    second[second.indexOf('"ab"') + 2] = 0xff;
    const bytes = Buffer.concat([Buffer.from(`${line(1)}\n`), second, Buffer.from(`\n${line(3)}\n`)]);
    writeFileSync(path, bytes);
    const r = await runMain(['replay', '--cwd', ws, 'bad']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('FACT_PARSE: fact log line 2: utf8: is not valid UTF-8');
    expect(r.stderr).toContain(`(in ${path})`);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('replay --web: a log swapped for a FIFO while served answers 500 at once; the server keeps serving', async () => {
    const { ws, dir } = workspace();
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${line(1)}\n`);
    const viewerDir = join(ws, 'viewer');
    mkdirSync(viewerDir);
    writeFileSync(join(viewerDir, 'index.html'), '<!doctype html>');
    const server = await startReplayServer({ logPath: path, pricing: {}, viewerDir });
    try {
      const port = Number(new URL(server.url).port);
      expect(await get(port, '/log.jsonl')).toEqual({ status: 200, body: `${line(1)}\n` });
      rmSync(path);
      execFileSync('mkfifo', [path]);
      const swapped = await get(port, '/log.jsonl');
      expect(swapped.status).toBe(500);
      expect(swapped.body).toContain('is a FIFO (named pipe)');
      expect((await get(port, '/pricing.json')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
