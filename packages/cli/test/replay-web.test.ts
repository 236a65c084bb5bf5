import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer } from '../src/commands/replay-web.js';
import { A3S } from './kit.js';

// `a3s replay --web` as a user runs it: the built bin serves the built viewer and one log.
const LOG = join(import.meta.dirname, '..', '..', 'effect', 'fixtures', 'v1', 'tool-round.jsonl');

const ERR = join(mkdtempSync(join(tmpdir(), 'a3s-replay-web-')), 'stderr.txt');

let child: ChildProcess;
let url: URL;

/** A raw request (fetch would not let the test set the Host header). */
function get(path: string, init: { method?: string; host?: string } = {}) {
  return new Promise<{ status: number; type: string; body: string }>((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path,
        method: init.method ?? 'GET',
        headers: { host: init.host ?? url.host },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, [A3S, 'replay', '--web', LOG], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  url = await new Promise<URL>((ok, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/\S+)/.exec(out);
      if (m) ok(new URL(m[1]!));
    });
    child.once('exit', (code) => fail(new Error(`a3s replay --web exited with ${code}: ${out}`)));
  });
});
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('a3s replay --web', () => {
  it('binds 127.0.0.1 on a random port and prints the URL', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
  });

  it('serves the shipped viewer and the log, byte for byte', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('fact log viewer');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect((await get(`/${script}`)).type).toContain('javascript');
    const log = await get('/log.jsonl');
    expect(log.type).toContain('ndjson');
    expect(log.body).toBe(readFileSync(LOG, 'utf8'));
    expect(JSON.parse((await get('/pricing.json')).body)).toEqual({});
  });

  it('is read-only, stays in its folder and refuses other host names', async () => {
    expect((await get('/log.jsonl', { method: 'POST' })).status).toBe(405);
    expect((await get('/log.jsonl', { method: 'PUT' })).status).toBe(405);
    expect((await get('/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await get('/assets/../../bin.js')).status).toBe(404);
    expect((await get('/', { host: `attacker.example:${url.port}` })).status).toBe(403);
  });

  it('stops cleanly on SIGTERM, with 143 as every command', async () => {
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', (c) => ok(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(143);
  });

  it('ends with 0 and nothing on stderr when the reader of its stdout goes away (| head -1)', () => {
    // A shell pipeline (a real pipe): head reads the URL line and exits; the server writes nothing more.
    const r = spawnSync(
      'bash',
      ['-c', 'node "$1" replay --web "$2" 2>"$3" | head -1; echo "a3s exit ${PIPESTATUS[0]}"', 'sh', A3S, LOG, ERR],
      { encoding: 'utf8', timeout: 10_000 },
    );
    expect(r.error, 'still serving after its reader went away').toBeUndefined();
    expect(r.stdout).toMatch(
      /^a3s replay: serving .* at http:\/\/127\.0\.0\.1:\d+\/ \(Ctrl-C to stop\)\na3s exit 0\n$/,
    );
    expect(readFileSync(ERR, 'utf8')).toBe('');
  });

  it('stops on Ctrl-C (SIGINT) with 130', async () => {
    const other = spawn(process.execPath, [A3S, 'replay', '--web', LOG], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((ok) => other.once('exit', (c) => ok(c)));
    await new Promise<void>((ok) => other.stdout!.once('data', () => ok()));
    other.kill('SIGINT');
    expect(await exited).toBe(130);
  });

  it('names the missing viewer when the package was built without it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'a3s-no-viewer-'));
    try {
      await expect(startReplayServer({ logPath: LOG, pricing: {}, viewerDir: empty })).rejects.toMatchObject({
        code: 'CLI_VIEWER_MISSING',
        message: expect.stringContaining(empty),
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
