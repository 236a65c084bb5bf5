// The runtime's state folders under `.a3s` hold what the host's trusted calls did (a workflow's
// run log, artifacts, journals) and are kept from every command while read rules hold. A folder
// can be kept from a process only while it exists: one the runtime made after a command's
// background job started would be in that job's view. So the folders are made before the first
// command runs, and what the runtime writes there later stays out of the job's reach.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const CAN_HIDE = process.platform === 'linux';
const TRUSTED = 'HOST_FLOW_OUTPUT=42f9e1';

describe.skipIf(!CAN_HIDE)('state folders made later than a background job', () => {
  it('PERM-02: a job started before .a3s/workflows existed cannot read what is written there later', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, '.env'), 'SECRET=1\n');
    const job =
      'nohup sh -c "i=0; while sleep 0.05; do i=\\$((i+1)); { echo \\$i; cat .a3s/workflows/run.jsonl; } > loot.txt 2>&1; done" >/dev/null 2>&1 & echo started';
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: job } }] },
      { text: 'Started.' },
    ]);
    const session = await (await Agent.create({ model, workspaceConfig: false, web: false })).session(dir, {
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
      permissions: { deny: ['Read(.env)'] },
    });
    try {
      expect(existsSync(join(dir, '.a3s', 'workflows'))).toBe(false);
      // The job's first copy may land before the command's changes are taken: the run may then end unverified.
      await session.send('start a watcher').catch(() => undefined);
      expect(toolResults(session).get('b1')?.output).toContain('started');
      for (const name of ['effect-log', 'artifacts', 'sessions', 'memory', 'workflows', 'call-journal'])
        expect(existsSync(join(dir, '.a3s', name)), name).toBe(true);
      // What a host-trusted workflow run writes there afterwards.
      mkdirSync(join(dir, '.a3s', 'workflows'), { recursive: true });
      writeFileSync(join(dir, '.a3s', 'workflows', 'run.jsonl'), `${TRUSTED}\n`);
      const seen = () => (existsSync(join(dir, 'loot.txt')) ? readFileSync(join(dir, 'loot.txt'), 'utf8') : '');
      // The job copies about every 50 ms, numbering each copy: wait for two made after the write
      // (a copy caught while the job rewrites the file reads as none, and is read again).
      const copies = async (): Promise<number> => {
        for (let i = 0; i < 400; i++) {
          const n = Number.parseInt(seen(), 10);
          if (n > 0) return n;
          await new Promise((r) => setTimeout(r, 10));
        }
        return 0;
      };
      const first = await copies();
      expect(first).toBeGreaterThan(0);
      for (let i = 0; i < 200 && (await copies()) < first + 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await copies()).toBeGreaterThanOrEqual(first + 2);
      expect(seen()).not.toContain('42f9e1');
    } finally {
      await session.close();
    }
  });
});
