// The SDK's memory helpers over a real file store: remembered in one session, recalled in a later
// one of the same workspace; a session without a store refuses with a typed error.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, InMemoryMemoryStore } from '../src/index.js';
import { tempRepo } from './kit.js';

describe('session memory', () => {
  it('EXT-01: remember in one session, recall in a later one; a custom store through session options', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), workspaceTools: false });
    const first = await agent.session(dir, { web: false });
    try {
      const kept = await first.remember('Release notes go in CHANGELOG.md.', { tags: ['docs'], key: 'release-notes' });
      expect(kept).toMatchObject({ key: 'release-notes', tags: ['docs'] });
      await first.remember('The CI runs on two cores.');
    } finally {
      await first.close();
    }
    expect(existsSync(join(dir, '.a3s', 'memory'))).toBe(true);
    const later = await agent.session(dir, { web: false });
    try {
      expect((await later.recall('where do release notes go')).map((m) => m.content)).toEqual([
        'Release notes go in CHANGELOG.md.',
      ]);
      expect((await later.recall(undefined, { tags: ['docs'] })).map((m) => m.key)).toEqual(['release-notes']);
      expect(await later.recall()).toHaveLength(2);
    } finally {
      await later.close();
    }
    const own = new InMemoryMemoryStore();
    const custom = await agent.session(dir, { web: false, memory: own });
    const none = await agent.session(dir, { web: false, memory: false });
    try {
      await custom.remember('only in this process');
      expect((await own.recall({})).map((m) => m.content)).toEqual(['only in this process']);
      expect((await custom.recall('release')).length).toBe(0);
      await expect(none.remember('lost')).rejects.toMatchObject({
        code: 'DIRECT_TOOL_FAILED',
        message: expect.stringContaining('TOOL_NOT_FOUND'),
      });
    } finally {
      await custom.close();
      await none.close();
      await agent.close();
    }
  });
});

describe('recall and search_skills are read tools', () => {
  it('the model recalls memories and searches skills without asking, with no approver', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          { id: 'r', name: 'recall', args: { query: 'release notes' } },
          { id: 's', name: 'search_skills', args: { query: 'release' } },
        ],
      },
      { text: 'Looked.' },
    ]);
    const agent = await Agent.create({ model, workspaceTools: false });
    const session = await agent.session(dir, { web: false });
    try {
      await session.remember('Release notes go in CHANGELOG.md.');
      expect(await session.send('where do release notes go?')).toMatchObject({ status: 'completed' });
      const results = session.state.view.messages.filter((m) => m.role === 'tool');
      expect(results.map((m) => [m.tool_call_id, m.ok])).toEqual([
        ['r', true],
        ['s', true],
      ]);
      expect(results[0]?.role === 'tool' ? results[0].output : '').toContain('CHANGELOG.md');
    } finally {
      await session.close();
      await agent.close();
    }
  });
});
