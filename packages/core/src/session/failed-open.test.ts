// A session whose open fails after its fact log was opened (a misspelt rule is found only once the
// tools are known) leaves no empty log behind to be listed as a session, and keeps a log with facts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { Agent } from './agent.js';

const { track } = closeAfterEach();
const logDir = (dir: string) => join(dir, '.a3s', 'effect-log');

describe('a session open that fails', () => {
  it('removes the empty log it created (and its lock), so the same id opens afterwards', async () => {
    const ws = workspace();
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'ok' }]), workspace: ws.services });
    await expect(agent.session(ws.dir, { sessionId: 's1', permissions: { deny: ['Bacth'] } })).rejects.toMatchObject({
      code: 'INVALID_PERMISSION_RULE',
    });
    expect(existsSync(logDir(ws.dir)) ? readdirSync(logDir(ws.dir)) : []).toEqual([]);
    const { session } = await track(open([{ text: 'ok' }], { sessionId: 's1' }, ws.dir));
    expect((await session.send('hi')).status).toBe('completed');
    expect(readdirSync(logDir(ws.dir))).toContain('s1.jsonl');
  });

  it('keeps a log that holds facts, unchanged', async () => {
    const { session, dir } = await open([{ text: 'ok' }], { sessionId: 's2' });
    await session.send('hi');
    await session.close();
    const path = join(logDir(dir), 's2.jsonl');
    const before = readFileSync(path, 'utf8');
    expect(before.length).toBeGreaterThan(0);
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'ok' }]) });
    await expect(agent.session(dir, { sessionId: 's2', permissions: { allow: ['Verfy'] } })).rejects.toMatchObject({
      code: 'INVALID_PERMISSION_RULE',
    });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe('a misspelt rule of one layer', () => {
  it('is named by its layer and its index there, not by its place in the merged list', async () => {
    const ws = workspace();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([{ text: 'ok' }]),
      workspace: ws.services,
      permissions: { deny: ['batch(x)', 'verify(y)'] },
    });
    await expect(agent.session(ws.dir, { permissions: { deny: ['verify(y)', 'Bacth'] } })).rejects.toThrow(
      /^deny\[1\] \(session options\): 'Bacth': names no tool of this session \(did you mean 'batch'\?\)/,
    );
  });
});
