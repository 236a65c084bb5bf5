// The runtime's state under `.a3s/` (fact logs, attachments, saved sessions, memories) must not be
// a way out of the workspace: a session refuses to open when `.a3s` or one of its state folders is
// a symbolic link (to a folder outside the workspace), naming the link, and writes nothing there.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

const outside = () => mkdtempSync(join(tmpdir(), 'a3s-outside-'));

async function openAt(dir: string) {
  const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'Done.' }]) });
  return agent.session(dir, { governance: { yolo: true } });
}

describe('a linked state folder is refused when the session opens', () => {
  it.each(['.a3s', '.a3s/effect-log', '.a3s/artifacts', '.a3s/sessions', '.a3s/memory'])(
    'LOG-05/BUILD-07: %s as a symbolic link to an outside folder fails SESSION_INITIALIZATION (cause WORKSPACE_PATH) naming the link',
    async (link) => {
      const dir = tempRepo();
      const away = outside();
      if (link !== '.a3s') mkdirSync(join(dir, '.a3s'));
      symlinkSync(away, join(dir, link));
      const error = await openAt(dir).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string; cause?: { code: string } },
      );
      expect(error?.message).toContain(`${join(dir, link)} is a symbolic link`);
      // The refusal arrives inside the session's initialization error, which names the resource.
      expect(error).toMatchObject({ code: 'SESSION_INITIALIZATION', cause: { code: 'WORKSPACE_PATH' } });
      expect(readdirSync(away)).toEqual([]);
    },
  );

  it('LOG-05: a real .a3s folder opens, and its state stays inside the workspace', async () => {
    const dir = tempRepo();
    const session = await openAt(dir);
    await session.send('hi');
    await session.close();
    expect(existsSync(join(dir, '.a3s', 'effect-log'))).toBe(true);
  });
});
