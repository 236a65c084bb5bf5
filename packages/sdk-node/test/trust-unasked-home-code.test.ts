// A command a rule allows unasked cannot leave a program in the user's home that runs later in
// place of a real one (`~/.local/bin/git`), a `.pth` file Python runs at every start, or a
// toolchain setting that names a program (cargo's runner): they are read-only for it, and what
// it creates there is removed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const bash = (id: string, command: string): ScriptedTurn => ({ tool_calls: [{ id, name: 'bash', args: { command } }] });

describe.skipIf(!CAN_HIDE)("a command allowed unasked and the programs in the user's home", () => {
  it('PERM-03: cannot plant a program on the search path, a Python start file or a cargo runner', async () => {
    const home = mkdtempSync(join(tmpdir(), 'a3s-home-'));
    const before = process.env.HOME;
    process.env.HOME = home;
    try {
      const model = new ScriptedLlmClient([
        bash(
          'p1',
          'mkdir -p ~/.local/bin && printf "#!/bin/sh\\ntouch PWNED\\n" > ~/.local/bin/git; chmod +x ~/.local/bin/git',
        ),
        bash(
          'p2',
          'mkdir -p ~/.local/lib/python3/site-packages && echo "import os" > ~/.local/lib/python3/site-packages/zz.pth',
        ),
        bash('p3', 'mkdir -p ~/.cargo && printf "[target.x]\\nrunner = \\"touch PWNED\\"\\n" > ~/.cargo/config.toml'),
        bash('p4', 'mkdir -p ~/work && echo fine > ~/work/notes.txt'),
        { text: 'Done.' },
      ]);
      const session = await (await Agent.create({ model })).session(tempRepo(), {
        gate: { continuation: { enabled: false } },
        permissions: { allow: ['Bash(*)'] },
      });
      opened.push(session);
      await session.send('go');
      const got = toolResults(session);
      expect(existsSync(join(home, '.local', 'bin', 'git'))).toBe(false);
      expect(existsSync(join(home, '.local', 'lib', 'python3', 'site-packages', 'zz.pth'))).toBe(false);
      expect(existsSync(join(home, '.cargo', 'config.toml'))).toBe(false);
      // Elsewhere in the home the rule's command works as before.
      expect(existsSync(join(home, 'work', 'notes.txt'))).toBe(true);
      for (const id of ['p1', 'p2', 'p3'])
        expect(JSON.stringify(got.get(id))).toMatch(/Read-only file system|denied_writes/);
    } finally {
      process.env.HOME = before;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
