// A real `a3s run` against a model server that answers, but badly: a server error is named as
// one (not as a network problem), with the next step; exit 1, no stack trace.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A3S, TEST_A3S_HOME, tempRepo } from './kit.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Runs the built `a3s` without blocking this process (its server must answer meanwhile). */
function run(args: string[], env: Record<string, string>) {
  const base = { ...process.env };
  delete base.A3S_MODEL;
  const child = spawn(process.execPath, [A3S, ...args], { env: { ...base, A3S_HOME: TEST_A3S_HOME, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (status) => resolve({ status, stdout, stderr })),
  );
}

describe('a model server that answers with an error', () => {
  it('HTTP 500: named as a server error with what to do, not as a network problem', async () => {
    const r = await run(['run', '--model', 'openai/gpt-4o', '--cwd', tempRepo(), 'hi'], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: base,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^run failed: LLM_TRANSPORT: openai: HTTP 500: Internal Server Error\n/);
    expect(r.stderr).toContain(
      'hint: the openai server answered with a server error (HTTP 500): try again later; if the server is yours, its log says why (OPENAI_BASE_URL',
    );
    expect(r.stderr).not.toContain('network connection');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Each retry is said while it waits, not only the last failure.
    expect(r.stdout).toMatch(
      /model call failed \(LLM_TRANSPORT: openai: HTTP 500: Internal Server Error\); retrying in \d+\.\d s \(attempt 2 of 3\)\n/,
    );
    expect(r.stdout).toContain('(attempt 3 of 3)');
  }, 20_000);

  it('a base URL on a port fetch refuses (6000): the port is named as the problem', async () => {
    const r = await run(['run', '--model', 'openai/gpt-4o', '--cwd', tempRepo(), 'hi'], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:6000/v1',
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^run failed: LLM_TRANSPORT: openai: request failed: fetch failed \(bad port\)\n/);
    expect(r.stderr).toContain("hint: the base URL's port is one that fetch never calls");
    expect(r.stderr).not.toContain('network connection');
  }, 20_000);
});
