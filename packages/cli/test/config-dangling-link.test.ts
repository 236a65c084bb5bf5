// A workspace config file that is a symbolic link to nothing: named, with what to do, in every
// command that reads the config (not silently ignored by a3s run) and in a3s init (not an ENOENT
// blamed on the folder).
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile } from './kit.js';

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
