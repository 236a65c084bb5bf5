import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configuredPlaces,
  enclosingGitFolders,
  gitEnvironment,
  hookFolders,
  submoduleGitDirs,
  worktreeConfigs,
} from './git-hook-places.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-hooks-'));
  made.push(dir);
  return dir;
};
const gitDir = (path: string): void => {
  mkdirSync(join(path, 'hooks'), { recursive: true });
  writeFileSync(join(path, 'HEAD'), 'ref: refs/heads/main\n');
};

describe('the places besides .git/hooks that git runs programs from', () => {
  it('finds the git folders of submodules, with / in their names and nested in one another, and not their other folders', () => {
    const common = temp();
    gitDir(join(common, 'modules', 'vendor', 'lib'));
    gitDir(join(common, 'modules', 'vendor', 'lib', 'modules', 'inner'));
    gitDir(join(common, 'modules', 'top'));
    mkdirSync(join(common, 'modules', 'top', 'objects', 'pack'), { recursive: true });
    expect(submoduleGitDirs(common)).toEqual([
      join(common, 'modules', 'top'),
      join(common, 'modules', 'vendor', 'lib'),
      join(common, 'modules', 'vendor', 'lib', 'modules', 'inner'),
    ]);
    expect(submoduleGitDirs(temp())).toEqual([]);
  });

  it('finds the repository a workspace is in from a subfolder of it, and none where there is none', () => {
    const top = temp();
    execFileSync('git', ['init', '-q'], { cwd: top });
    mkdirSync(join(top, 'packages', 'app'), { recursive: true });
    expect(enclosingGitFolders(join(top, 'packages', 'app'))).toMatchObject({ common: join(top, '.git') });
    expect(enclosingGitFolders(top)).toMatchObject({ gitDir: join(top, '.git') });
    const bare = temp();
    let inRepository = true;
    try {
      execFileSync('git', ['rev-parse', '--git-dir'], { cwd: bare, stdio: 'ignore' });
    } catch {
      inRepository = false;
    }
    if (!inRepository) expect(enclosingGitFolders(bare)).toBeUndefined();
  });

  it('looks at no more than 64 submodules', () => {
    const common = temp();
    for (let i = 0; i < 70; i++) gitDir(join(common, 'modules', `m${String(i).padStart(2, '0')}`));
    expect(submoduleGitDirs(common)).toHaveLength(64);
  });

  it("lists other worktrees' configuration files", () => {
    const common = temp();
    mkdirSync(join(common, 'worktrees', 'b'), { recursive: true });
    mkdirSync(join(common, 'worktrees', 'a'), { recursive: true });
    expect(worktreeConfigs(common)).toEqual([
      join(common, 'worktrees', 'a', 'config.worktree'),
      join(common, 'worktrees', 'b', 'config.worktree'),
    ]);
    expect(worktreeConfigs(temp())).toEqual([]);
  });

  it('asks git for the hooks folder only when a configuration mentions hooksPath, and follows a change of it', () => {
    const root = temp();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const own = join(root, '.git', 'hooks');
    const config = join(root, '.git', 'config');
    expect(configuredPlaces(root, own, root, [config]).hooks).toBeUndefined();
    execFileSync('git', ['config', 'core.hooksPath', '.husky/_'], { cwd: root });
    expect(configuredPlaces(root, own, root, [config]).hooks).toBe(join(root, '.husky', '_'));
    execFileSync('git', ['config', 'core.hooksPath', '/opt/hooks'], { cwd: root });
    expect(configuredPlaces(root, own, root, [config]).hooks).toBe('/opt/hooks');
    execFileSync('git', ['config', 'core.hooksPath', '.git/hooks'], { cwd: root });
    expect(configuredPlaces(root, own, root, [config]).hooks).toBeUndefined();
  });

  it('lists the files a configuration includes, relative or absolute, only when one mentions an include', () => {
    const root = temp();
    const elsewhere = temp();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const config = join(root, '.git', 'config');
    expect(configuredPlaces(root, join(root, '.git', 'hooks'), root, [config]).included).toEqual([]);
    writeFileSync(join(root, 'shared.cfg'), '[alias]\n\tco = checkout\n');
    writeFileSync(join(elsewhere, 'more.cfg'), '[user]\n\tname = x\n');
    execFileSync('git', ['config', 'include.path', '../shared.cfg'], { cwd: root });
    execFileSync('git', ['config', 'includeIf.gitdir:/.path', join(elsewhere, 'more.cfg')], { cwd: root });
    const found = configuredPlaces(root, join(root, '.git', 'hooks'), root, [config]).included;
    expect(found).toContain(join(root, 'shared.cfg'));
    expect(found).toContain(join(elsewhere, 'more.cfg'));
    expect(found).not.toContain(config);
  });

  it("takes husky's scripts beside its hooks folder, and no parent of another hooks folder", () => {
    const root = temp();
    mkdirSync(join(root, '.husky', '_'), { recursive: true });
    expect(hookFolders(join(root, '.husky', '_'))).toEqual([join(root, '.husky', '_'), join(root, '.husky')]);
    expect(hookFolders(join(root, '.githooks'))).toEqual([join(root, '.githooks')]);
  });
});

describe('the git settings every command allowed unasked runs with', () => {
  it('turn off fsmonitor and implicit bare repositories, take hooks from the given folder, and keep the host pairs first', () => {
    const env = gitEnvironment('/ws/.git/hooks', {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'host',
    });
    expect(env).toEqual({
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'host',
      GIT_CONFIG_KEY_1: 'core.fsmonitor',
      GIT_CONFIG_VALUE_1: 'false',
      GIT_CONFIG_KEY_2: 'core.hooksPath',
      GIT_CONFIG_VALUE_2: '/ws/.git/hooks',
      GIT_CONFIG_KEY_3: 'safe.bareRepository',
      GIT_CONFIG_VALUE_3: 'explicit',
      GIT_CONFIG_KEY_4: 'protocol.ext.allow',
      GIT_CONFIG_VALUE_4: 'never',
      GIT_CONFIG_KEY_5: 'protocol.file.allow',
      GIT_CONFIG_VALUE_5: 'never',
      GIT_CONFIG_COUNT: '6',
    });
    expect(gitEnvironment(undefined, { GIT_CONFIG_COUNT: 'x' })).toMatchObject({
      GIT_CONFIG_COUNT: '5',
      GIT_CONFIG_VALUE_1: '/dev/null',
    });
  });

  it('a remote of the repository that is an ext:: command (its URL or an insteadOf rewrite) does not run', () => {
    const root = temp();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const marker = join(root, 'EXT');
    execFileSync('git', ['config', 'protocol.ext.allow', 'always'], { cwd: root });
    execFileSync('git', ['config', 'remote.origin.url', `ext::sh -c touch% ${marker}`], { cwd: root });
    const env = { ...process.env, ...gitEnvironment(join(root, '.git', 'hooks'), {}) };
    const fetch = (e?: NodeJS.ProcessEnv) => {
      try {
        execFileSync('git', ['fetch', 'origin'], { cwd: root, env: e, stdio: 'ignore', timeout: 10_000 });
      } catch {
        // The fetch fails either way: no repository answers.
      }
    };
    fetch(env);
    expect(existsSync(marker)).toBe(false);
    fetch(process.env);
    expect(existsSync(marker)).toBe(true);
  });

  it('git reads them above the repository: a fsmonitor in .git/config does not run', () => {
    const root = temp();
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${join(root, 'PWNED')}`], { cwd: root });
    const env = { ...process.env, ...gitEnvironment(join(root, '.git', 'hooks'), {}) };
    execFileSync('git', ['status', '--short'], { cwd: root, env, stdio: 'ignore' });
    expect(existsSync(join(root, 'PWNED'))).toBe(false);
    execFileSync('git', ['status', '--short'], { cwd: root, stdio: 'ignore' });
    expect(existsSync(join(root, 'PWNED'))).toBe(true);
  });
});
