import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { rebaseConfig } from './rebase-config.js';
import { configFolderOf, workspaceFolders } from './workspace-folders.js';

const folder = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-rebase-')));
const file = join(folder, 'a3s.config.json');

describe('rebaseConfig', () => {
  it('anchors relative path rules at the config folder and keeps the rules that mean the same anywhere', () => {
    const out = rebaseConfig(
      {
        permissions: {
          deny: ['Read(./.env)', 'Read(/etc/shadow)', 'Read(//opt/x)', 'Read(~/.ssh/**)', 'Bash(rm:*)', 'WebFetch'],
          ask: ['mcp__fs__write_file(docs/**)', 'WebFetch(domain:example.com)'],
          allow: ['Read(.)', 'Edit(src/**)', 'Bash(npm test:*)', 'mcp__fs__read_file(docs/**)'],
        },
        agents: [{ name: 'r', description: 'reader', tools: ['Read(src/**)', 'Grep'] }],
        skillDirs: ['tools/skills'],
        agentDirs: ['/abs/agents'],
      },
      folder,
      file,
    );
    expect(out.permissions?.deny).toEqual([
      `Read(/${folder}/.env)`,
      'Read(//etc/shadow)',
      `Read(/${folder}/etc/shadow)`,
      'Read(//opt/x)',
      'Read(~/.ssh/**)',
      'Bash(rm:*)',
      'WebFetch',
    ]);
    expect(out.permissions?.ask).toEqual([
      'mcp__fs__write_file(docs/**)',
      `mcp__fs__write_file(/${folder}/docs/**)`,
      'WebFetch(domain:example.com)',
    ]);
    expect(out.permissions?.allow).toEqual([
      `Read(/${folder}/**)`,
      `Edit(/${folder}/src/**)`,
      'Bash(npm test:*)',
      'mcp__fs__read_file(docs/**)',
    ]);
    expect(out.agents?.[0]?.tools).toEqual([`Read(/${folder}/src/**)`, 'Grep']);
    expect(out.skillDirs).toEqual([join(folder, 'tools', 'skills')]);
    expect(out.agentDirs).toEqual(['/abs/agents']);
  });

  it('refuses a rule whose meaning depends on the folder, naming its key path, the rule and the file', () => {
    for (const [rule, why] of [
      ['Read(../shared/**)', "'..'"],
      ['*(secret/**)', 'both file tools'],
    ] as const) {
      let error: unknown;
      try {
        rebaseConfig({ permissions: { allow: ['Bash', rule] } }, folder, file);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SessionConfigurationError);
      expect(error).toMatchObject({ field: 'permissions.allow[1]' });
      expect((error as Error).message).toContain(`rule '${rule}' of ${file} cannot be applied`);
      expect((error as Error).message).toContain(why);
    }
  });
});

describe('workspaceFolders', () => {
  it('runs from the git root down, never above the home folder, and is the folder alone outside git', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-folders-')));
    const deep = join(root, 'home', 'me', 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(workspaceFolders(deep)).toEqual([deep]);
    mkdirSync(join(root, '.git'));
    expect(workspaceFolders(deep)).toEqual([
      root,
      join(root, 'home'),
      join(root, 'home', 'me'),
      join(root, 'home', 'me', 'a'),
      deep,
    ]);
    // The repository's root is above the home folder: the search stops at home, finding no repository.
    expect(workspaceFolders(deep, join(root, 'home', 'me'))).toEqual([deep]);
    mkdirSync(join(root, 'home', 'me', '.git'));
    expect(workspaceFolders(deep, join(root, 'home', 'me'))).toEqual([
      join(root, 'home', 'me'),
      join(root, 'home', 'me', 'a'),
      deep,
    ]);
  });

  it("names a config file's folder: a3s.config.json's own, .a3s/config.json's parent", () => {
    expect(configFolderOf('/r/a3s.config.json')).toBe('/r');
    expect(configFolderOf('/r/.a3s/config.json')).toBe('/r');
  });
});
