// A path rule names a file by where it is: `Read(config/.env)`, `Write(config/sub/**)`. A command
// that moved or removed a folder on the way (`mv config config2`) would carry the file to a path
// no rule names, for every later tool. The folders on the way stay in place for the commands
// held to the rules; what is in them can still change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectNoLeak, results, run } from './read-deny-kit.js';
import { tempRepo } from './kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const SECRET = 'MOVED_SECRET=p4rent-9c1e';
const bash = (id: string, command: string) => call(id, 'bash', { command });

function workspace(): string {
  const dir = tempRepo();
  mkdirSync(join(dir, 'config', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'config', '.env'), `${SECRET}\n`);
  writeFileSync(join(dir, 'config', 'sub', 'x.ts'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'config', 'app.json'), '{}\n');
  return dir;
}

describe.skipIf(!CAN_HIDE)('a folder on the way to a ruled path cannot be moved out from under the rule', () => {
  it('PERM-02: mv and rm of the parent fail; read, write and later commands still meet the rules', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        bash('b1', 'mv config config2 2>&1; mv config/sub config/sub2 2>&1; rm -rf config 2>&1; ls config'),
        bash('b2', `python3 -c "import os; os.rename('config', 'cfg')" 2>&1 | tail -1; echo ok > config/new.json`),
        call('r1', 'read', { file_path: 'config2/.env' }),
        call('r2', 'read', { file_path: 'cfg/.env' }),
        bash('b3', 'cat config2/.env cfg/.env config/.env 2>&1; echo pwned > config/sub/x.ts 2>&1'),
        call('w1', 'write', { file_path: 'config2/sub/y.ts', content: 'y' }),
      ],
      { permissions: { deny: ['Read(config/.env)', 'Write(config/sub/**)'] } },
    );
    const got = results(session);
    expect(got.get('b1')?.output).toMatch(/busy/i);
    expect(got.get('b2')?.output).toMatch(/busy/i);
    expect(readFileSync(join(dir, 'config', '.env'), 'utf8')).toBe(`${SECRET}\n`);
    expect(readFileSync(join(dir, 'config', 'sub', 'x.ts'), 'utf8')).toBe('export const x = 1;\n');
    // What is in the folders can still change: the new file is there, app.json is gone.
    expect(readFileSync(join(dir, 'config', 'new.json'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(dir, 'config', 'app.json'))).toBe(false);
    // The write tool made config2/sub for its file; nothing moved there.
    expect(existsSync(join(dir, 'config2', '.env'))).toBe(false);
    expect(existsSync(join(dir, 'config2', 'sub', 'x.ts'))).toBe(false);
    expect(existsSync(join(dir, 'cfg'))).toBe(false);
    expect(got.get('r1')?.ok).toBe(false);
    expectNoLeak(dir, session, events, [SECRET]);
  });
});
