// The workspace tools in a real session through the governed kernel: a scripted model reads a
// buggy module, fixes it with `edit`, and verifies with the real test command through `verify`
// (nested `bash`); the completion gate binds the passed report to the edit's digest.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-tw-session-')));
  writeFileSync(join(dir, 'sum.mjs'), 'export const sum = (xs) => xs.reduce((a, b) => a + b, 1);\n');
  writeFileSync(
    join(dir, 'sum.test.mjs'),
    "import assert from 'node:assert/strict';\nimport { sum } from './sum.mjs';\nassert.equal(sum([1, 2, 3]), 6);\n",
  );
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

describe('workspace tools in a session', () => {
  it('GATE-01: read, edit and a verified test run through the kernel; the run completes as verified', async () => {
    const dir = repo();
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          { id: 'r', name: 'read', args: { file_path: 'sum.mjs' } },
          { id: 'g', name: 'grep', args: { pattern: 'reduce' } },
        ],
      },
      {
        tool_calls: [
          { id: 'e', name: 'edit', args: { file_path: 'sum.mjs', old_string: 'a + b, 1)', new_string: 'a + b, 0)' } },
        ],
      },
      {
        tool_calls: [
          {
            id: 'v',
            name: 'verify',
            args: { subject: 'sum fix', commands: [{ id: 'test', kind: 'test', command: 'node sum.test.mjs' }] },
          },
        ],
      },
    ]);
    const agent = await Agent.create({
      model,
      tools: [workspaceToolPack],
      workspace: new LocalWorkspace({ root: dir }),
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir);
    try {
      expect(session.toolNames()).toEqual(
        expect.arrayContaining(['read', 'write', 'edit', 'patch', 'grep', 'glob', 'ls', 'bash', 'git']),
      );
      const r = await session.send('Fix the sum bug');
      expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
      expect(readFileSync(join(dir, 'sum.mjs'), 'utf8')).toContain('a + b, 0)');
      const results = session.store.log.facts
        .filter((f) => f.type === 'tool.result')
        .map((f) => f.payload as { name: string; ok: boolean; output: string });
      expect(results.map((x) => [x.name, x.ok])).toEqual([
        ['read', true],
        ['grep', true],
        ['edit', true],
        ['verify', true],
      ]);
      expect(results[0]!.output).toContain('reduce');
      const ledger = session.changeLedger();
      expect(ledger.entries).toEqual([{ tool: 'edit', path: 'sum.mjs', digest: expect.stringMatching(/^sha256:/) }]);
      expect(session.verificationReports[0]).toMatchObject({ status: 'passed', effect_digest: ledger.digest });
      // The run ended right after the passed verification: no fourth model call.
      expect(model.requests).toHaveLength(3);
    } finally {
      await session.close();
    }
  });

  it('GATE-01: a failing verification is recorded as failed and never counts', async () => {
    const dir = repo();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'w', name: 'write', args: { file_path: 'note.txt', content: 'x' } }] },
      {
        tool_calls: [
          {
            id: 'v',
            name: 'verify',
            args: { subject: 'tests', commands: [{ id: 'test', command: 'node sum.test.mjs' }] },
          },
        ],
      },
      { text: 'Done, tests pass.' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [workspaceToolPack],
      workspace: new LocalWorkspace({ root: dir }),
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, { gate: { continuation: { enabled: false } } });
    try {
      await expect(session.send('add a note')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
      expect(session.verificationReports[0]).toMatchObject({ status: 'failed' });
      expect(session.verificationReports[0]!.checks[0]!.evidence.output_tail).toMatch(/AssertionError|Expected values/);
    } finally {
      await session.close();
    }
  });

  it('core with the workspace pack alone (no web pack) builds a working session without web tools, whatever the web setting', async () => {
    const dir = repo();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'r', name: 'read', args: { file_path: 'sum.mjs' } }] },
      { text: 'It sums.' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [workspaceToolPack],
      workspace: new LocalWorkspace({ root: dir }),
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, { web: { allowPrivateNetwork: true } });
    try {
      expect(session.toolNames().filter((n) => n.startsWith('web_'))).toEqual([]);
      expect(session.toolNames()).toEqual(expect.arrayContaining(['batch', 'program', 'read', 'bash', 'git']));
      expect(await session.send('What does sum.mjs do?')).toMatchObject({ status: 'completed', text: 'It sums.' });
      expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain('web_fetch');
    } finally {
      await session.close();
    }
  });
});
