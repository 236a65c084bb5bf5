// A write cancelled while its data is on its way: the log and the file always agree. Either the
// result says cancelled and the file is as it was, or the write landed and its result says so;
// never "cancelled" for a file that was written (a follow-up turn would reason from a falsehood).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { toolResults } from './kit.js';

const SIZE = 8 * 1024 * 1024;

describe('a cancelled write', () => {
  it('STEER-04: the logged result and the file agree, wherever the cancellation falls', async () => {
    const NEW = `${'N'.repeat(SIZE - 1)}\n`;
    const seen = new Set<string>();
    for (const ms of [5, 40, 80, 120, 160, 220, 300]) {
      const dir = mkdtempSync(join(tmpdir(), 'a3s-cancel-write-'));
      writeFileSync(join(dir, 'big.txt'), `${'O'.repeat(SIZE - 1)}\n`);
      const model = new ScriptedLlmClient([
        { tool_calls: [{ id: 'w', name: 'write', args: { file_path: 'big.txt', content: NEW } }] },
        { text: 'done' },
      ]);
      const agent = await Agent.create({ model, workspaceConfig: false, web: false });
      const s = await agent.session(dir, { governance: { yolo: true }, gate: { continuation: { enabled: false } } });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), ms);
      await s.send('go', { signal: ac.signal }).catch(() => undefined);
      await s.close();
      const written = readFileSync(join(dir, 'big.txt'), 'latin1')[0] === 'N';
      const result = toolResults(s).get('w');
      if (result === undefined) {
        expect(written, `abort at ${ms} ms: no result, yet the file was written`).toBe(false);
        seen.add('not started');
        continue;
      }
      expect(result.ok, `abort at ${ms} ms: result ok ${result.ok}, file written ${written}`).toBe(written);
      seen.add(written ? 'landed' : 'cancelled');
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
