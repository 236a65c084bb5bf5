// agent.listSessions(dir): the sessions a workspace holds, from their fact logs, newest first,
// each by the id it was opened with (also an id that names its log by a hash), reopenable by it.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, SessionConfigurationError } from '../src/index.js';
import { tempRepo } from './kit.js';

describe('agent.listSessions', () => {
  it('lists each session of the folder by its id, newest first; empty logs and other files are left out', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'a' }, { text: 'b' }]) });
    expect(await agent.listSessions(dir)).toEqual([]);
    const plain = await agent.session(dir, { sessionId: 'fix-login' });
    await plain.send('one');
    await plain.close();
    const spaced = await agent.session(dir, { sessionId: 'fix the bug / again' });
    await spaced.send('two');
    await spaced.close();
    const idle = await agent.session(dir, { sessionId: 'never-used' });
    await idle.close();
    const logs = join(dir, '.a3s', 'effect-log');
    utimesSync(join(logs, 'fix-login.jsonl'), 1_000, 1_000);
    mkdirSync(join(logs, 'folder.jsonl'));
    writeFileSync(join(logs, 'notes.txt'), 'x');
    const listed = await agent.listSessions(dir);
    expect(listed.map((s) => s.sessionId)).toEqual(['fix the bug / again', 'fix-login']);
    expect(listed[1]!.updatedAtMs).toBe(1_000_000);
    const again = await agent.session(dir, { sessionId: listed[0]!.sessionId });
    expect(again.state.view.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await again.close();
    await agent.close();
  });

  it('a folder that does not exist is a SessionConfigurationError', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    await expect(agent.listSessions('/nonexistent/folder')).rejects.toBeInstanceOf(SessionConfigurationError);
    await agent.close();
  });
});
