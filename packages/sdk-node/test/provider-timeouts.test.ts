// A provider's request timeouts from the config file (`providers.<id>.connectTimeoutMs`): a local
// model that is slow to answer is waited for as long as the setting says, and no longer. Real
// HTTP on loopback, the real client.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

const DELAY_MS = 1_200;
const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const ANSWER = `${chunk({ role: 'assistant', content: 'hello from a slow model' })}${chunk({}, 'stop')}data: [DONE]\n\n`;

let server: Server;
let base: string;
let requests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(ANSWER);
      }, DELAY_MS),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((ok) => server.close(() => ok()));
});

function workspace(connectTimeoutMs: number): string {
  const dir = tempRepo();
  writeFileSync(
    join(dir, 'a3s.config.json'),
    JSON.stringify({ model: 'vllm/slow', providers: { vllm: { baseUrl: base, connectTimeoutMs } } }),
  );
  return dir;
}

describe('providers.<id>.connectTimeoutMs', () => {
  it('a model slower than the default allows is waited for when the setting allows it', async () => {
    const dir = workspace(10_000);
    const agent = await Agent.create(dir);
    try {
      const s = await agent.session(dir, { gate: { continuation: { enabled: false } } });
      const r = await s.send('hi');
      expect(r.text).toBe('hello from a slow model');
    } finally {
      await agent.close();
    }
  }, 30_000);

  it('a model slower than the setting fails the request with a timeout, not after the default 60 s', async () => {
    const dir = workspace(300);
    const agent = await Agent.create(dir);
    const before = requests;
    const t0 = performance.now();
    try {
      const s = await agent.session(dir, { gate: { continuation: { enabled: false } } });
      const e = await s.send('hi').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect(String((e as Error).message)).toMatch(/time|300/i);
      expect(performance.now() - t0).toBeLessThan(20_000);
      expect(requests - before).toBeGreaterThanOrEqual(1);
    } finally {
      await agent.close();
    }
  }, 30_000);
});
