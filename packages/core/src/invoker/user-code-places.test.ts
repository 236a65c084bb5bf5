// Programs and settings in the user's home that run later (a program put ahead of the real one on
// the search path, Python's packages for the user, toolchain settings) are held from commands a
// rule allows unasked; git is never sent to write its settings over `/dev/null`.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceExec } from '../workspace/workspace-services.js';
import { NO_GLOBAL_GIT_CONFIG, unaskedHold } from './protected-writes.js';
import { homeSearchPath, userCodeRules } from './user-code-places.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-home-code-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the user's programs and toolchain settings", () => {
  it('holds the folders of the home on the search path, and ~/.local/bin and ~/bin, not the workspace or the system', () => {
    const home = join(base, 'h1');
    const root = join(home, 'project');
    for (const d of ['.cargo/bin', 'tools', 'project/node_modules/.bin']) mkdirSync(join(home, d), { recursive: true });
    writeFileSync(join(home, 'file-on-path'), '');
    const PATH = [
      join(home, '.cargo/bin'),
      join(root, 'node_modules/.bin'),
      join(home, 'file-on-path'),
      '/usr/bin',
      'relative/bin',
      `${join(home, 'tools')}/`,
    ].join(':');
    expect(homeSearchPath(root, { PATH }, home).sort()).toEqual(
      [join(home, '.cargo/bin'), join(home, '.local/bin'), join(home, 'bin'), join(home, 'tools')].sort(),
    );
    const rules = userCodeRules(root, { PATH }, home);
    expect(rules).toContain(`Write(${join(home, '.cargo/bin')}/**)`);
    expect(rules).toContain('Write(~/.local/lib/**)');
    expect(rules).toContain('Write(~/.cargo/config.toml)');
    expect(rules.some((r) => r.includes('/usr/bin'))).toBe(false);
  });

  it('sends git to a settings file no process can create where the user has none, or the host names /dev/null', () => {
    const home = join(base, 'h2');
    const root = join(base, 'repo');
    mkdirSync(home);
    mkdirSync(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    const exec: WorkspaceExec = { run: async () => Promise.reject(new Error('not run')) };
    const was = process.env.HOME;
    process.env.HOME = home;
    try {
      for (const given of [{}, { GIT_CONFIG_GLOBAL: '/dev/null' }]) {
        const { env } = unaskedHold(root, exec, new PermissionPolicy(), { PATH: process.env.PATH, ...given });
        expect(env.GIT_CONFIG_GLOBAL).toBe(NO_GLOBAL_GIT_CONFIG);
        // Its folder is not one: nothing can be created there, not even by the system's owner.
        expect(lstatSync(dirname(NO_GLOBAL_GIT_CONFIG)).isDirectory()).toBe(false);
        const run = (args: string[]) =>
          execFileSync('git', args, { cwd: root, env: { PATH: process.env.PATH, HOME: home, ...env }, stdio: 'pipe' });
        // git works, and reads no user settings.
        expect(run(['status', '--short']).toString()).toBe('');
        expect(() => run(['config', '--global', 'user.name', 'x'])).toThrow(/could not lock config file/);
      }
    } finally {
      process.env.HOME = was;
    }
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});
