// A key pasted with typographic quotes (OPENAI_API_KEY='“sk-…”') is a configuration error before
// any request (exit 2, naming the variable and the character, never the key), not a network
// failure retried three times (exit 1, "check the network connection").
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runMain, tempRepo } from './kit.js';

describe('an API key an HTTP header cannot carry', () => {
  it('a run with OPENAI_API_KEY in typographic quotes: exit 2, MODEL_CONFIGURATION naming it, nothing sent', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    try {
      const r = await runMain(['run', '--model', 'openai/gpt-4o', '--cwd', tempRepo(), 'hi'], {
        env: { OPENAI_API_KEY: '“sk-proj-abcdef1234567890”', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain('MODEL_CONFIGURATION');
      expect(r.stderr).toContain("OPENAI_API_KEY: the API key has '“' (U+201C) at character 1");
      expect(r.stderr).not.toContain('abcdef');
      expect(r.stderr).not.toContain('LLM_TRANSPORT');
      expect(r.stderr).not.toContain('network');
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});
