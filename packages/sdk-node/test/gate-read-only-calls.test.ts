// A call of a write-tier tool whose own capabilities say it only reads (`git status`, `git log`,
// an `edit` dry run) changes nothing: a run of such calls ends `completed (narrative)`, with an
// empty change ledger, instead of failing the completion gate for an unknown change.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });

describe('read-only calls of write-tier tools and the completion gate', () => {
  it('GATE-04: git status, git log and an edit dry run change nothing, so the run completes as narrative', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'notes.txt'), 'alpha\n');
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          call('g1', 'git', { operation: 'status' }),
          call('g2', 'git', { operation: 'log' }),
          call('e1', 'edit', { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta', dry_run: true }),
        ],
      },
      { text: 'The tree is clean.' },
    ]);
    const session = await (await Agent.create({ model })).session(dir, {
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
    });
    opened.push(session);
    const r = await session.send('look around');
    expect(r.status).toBe('completed');
    expect(session.changeLedger().entries).toEqual([]);
    const results = session.core.store.log.facts.filter((f) => f.type === 'tool.result');
    expect(results.map((f) => (f.payload as { ok: boolean }).ok)).toEqual([true, true, true]);
  });

  it('GATE-01: a git call that does change the tree still counts as a change', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'notes.txt'), 'alpha\n');
    const model = new ScriptedLlmClient([
      { tool_calls: [call('s1', 'git', { operation: 'stash', action: 'push', include_untracked: true })] },
      { text: 'Stashed.' },
    ]);
    const session = await (await Agent.create({ model })).session(dir, {
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
    });
    opened.push(session);
    await expect(session.send('stash it')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(session.changeLedger().entries.length).toBeGreaterThan(0);
  });
});
