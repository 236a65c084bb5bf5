// A file the read rules keep from a program under debug stays kept from it when the person
// replaces it while the program lives: an editor saves by writing a new file and renaming it over
// the old one (which may get the old inode number back), and a new `.env` is another file than the
// one hidden when the adapter and the program started. The next debug call finds the session ended
// (and says why), never the new secret read through the program.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { toolResults } from './kit.js';
import { call, DEBUGPY, DENY, debugProject, workspace, replacements } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux';
const NEW_SECRET = 'ROTATED_TOKEN=swordfish-5c1e';

describe.skipIf(!CAN_HIDE || !DEBUGPY)('a program under debug and a denied file replaced while it lives', () => {
  it.each(replacements(NEW_SECRET))(
    'PERM-02: %s: the next debug call cannot read it through the program',
    async (_label, replace) => {
      const dir = workspace();
      debugProject(dir, 'hold.py', 'import time\nstate = 41\nprint(state)\n');
      const model = new ScriptedLlmClient([
        call('d0', 'debug', { op: 'breakpoints', file: 'hold.py', lines: [3] }),
        call('d1', 'debug', { op: 'launch', program: 'hold.py' }),
        { text: 'Stopped.' },
        call('d2', 'debug', { op: 'evaluate', expression: "open('.env').read()", adapter: 'debugpy' }),
        call('d3', 'debug', { op: 'status' }),
        { text: 'Done.' },
      ]);
      const session = await (await Agent.create({ model })).session(dir, {
        governance: { yolo: true },
        gate: { continuation: { enabled: false } },
        permissions: DENY,
      });
      const turn = async (prompt: string) => {
        const stream = session.stream(prompt);
        // The gate may hold the run (an exec-tier call changed nothing verified): the results are what is checked.
        try {
          for await (const _ of stream) {
            // drained
          }
        } catch {}
        await stream.result.catch(() => undefined);
      };
      try {
        await turn('first');
        expect(toolResults(session).get('d1')?.output).toMatch(/stopped \(breakpoint\)/);
        replace(dir);
        await turn('second');
        const second = toolResults(session).get('d2');
        expect(second?.output).not.toContain('swordfish');
        expect(second).toMatchObject({
          ok: false,
          output: expect.stringContaining(
            'the debug session was ended because the files the permission rules keep from the program changed',
          ),
        });
        expect(toolResults(session).get('d3')?.output).toContain('no debug session');
      } finally {
        await session.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
