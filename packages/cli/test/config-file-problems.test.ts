// A workspace config file that is a symbolic link to nothing: named, with what to do, in every
// command that reads the config (not silently ignored by a3s run) and in a3s init (not an ENOENT
// blamed on the folder); and a config file a3s init --force may not write, in a writable folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, a3s, scriptFile, TEST_A3S_HOME } from './kit.js';

function danglingWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-dangling-'));
  symlinkSync(join('gone', 'a3s.json'), join(dir, 'a3s.config.json'));
  return dir;
}

describe('a3s.config.json is a link to nothing', () => {
  it.each([
    ['run', (dir: string) => ['run', '--model', `scripted:${scriptFile([{ text: 'ok' }])}`, '--cwd', dir, 'hi']],
    ['tools', (dir: string) => ['tools', '--cwd', dir]],
    ['init', (dir: string) => ['init', '--cwd', dir]],
    ['init --force', (dir: string) => ['init', '--force', '--cwd', dir]],
  ])('BUILD-08: a3s %s names the dangling link and what to do (exit 2)', (_name, args) => {
    const dir = danglingWorkspace();
    const r = a3s(args(dir));
    expect(r.stderr).toContain(
      `${join(dir, 'a3s.config.json')} is a symbolic link to 'gone/a3s.json', which leads to no file (ENOENT)`,
    );
    expect(r.stderr).toContain(`Point the link at the config file, or remove it (rm ${join(dir, 'a3s.config.json')})`);
    expect(r.stderr).not.toContain('a folder you can write to');
    expect(r.status, r.stderr).toBe(2);
    expect(existsSync(join(dir, '.a3s', 'effect-log'))).toBe(false);
  });
});

describe('a3s init --force on a config file it may not write', () => {
  it('BUILD-08: names the file (mode 000) and chmod, not the folder, which is writable', (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-unwritable-'));
    chmodSync(dir, 0o777);
    const file = join(dir, 'a3s.config.json');
    writeFileSync(file, '{}\n');
    chmodSync(file, 0o000);
    const root = process.getuid?.() === 0;
    // As root every file is writable: the child then runs as nobody, who must be able to load the CLI.
    if (root) {
      const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(A3S)})`], {
        uid: 65534,
        gid: 65534,
      });
      if (probe.status !== 0) ctx.skip('running as root in a checkout the user nobody cannot read');
    }
    const r = spawnSync(process.execPath, [A3S, 'init', '--force', '--cwd', dir], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', A3S_HOME: TEST_A3S_HOME },
      ...(root ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.stderr).toContain(`cannot write ${file}: permission denied on the file itself (its folder is writable)`);
    expect(r.stderr).toContain(`chmod u+w ${file}`);
    expect(r.stderr).not.toContain('a folder you can write to');
    expect(r.status).toBe(1);
  });
});
