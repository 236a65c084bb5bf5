// The agent's configuration in subfolders, searched at any depth before and after each command a
// rule allows unasked: the search remembers folders by their change time, which must never hide a
// configuration made since (not even in a folder whose modification time was set back), and it
// fails over its folder limit rather than miss one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { removeCreatedDenied } from './created-denied.js';
import { filesToHide } from './files-to-hide.js';
import { holdNestedConfigs, holdsNestedConfigs, nestedConfigs } from './nested-config.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
function tree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-nested-')));
  made.push(root);
  for (const d of ['a/b/c', 'pkg/.a3s/effect-log', 'pkg/.a3s/agents', 'web/src', '.a3s/agents'])
    mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'a3s.config.json'), '{}');
  writeFileSync(join(root, '.a3s', 'config.json'), '{}');
  writeFileSync(join(root, 'web', 'a3s.config.json'), '{}');
  writeFileSync(join(root, 'pkg', '.a3s', 'config.json'), '{}');
  writeFileSync(join(root, 'pkg', '.a3s', 'effect-log', 's.jsonl'), '');
  return root;
}

describe("the agent's configuration in subfolders", () => {
  it("PERM-03: is found at any depth, the root's own and a subfolder's runtime state left to other rules", async () => {
    const root = tree();
    expect(await nestedConfigs(root)).toEqual(
      ['pkg/.a3s/agents', 'pkg/.a3s/config.json', 'web/a3s.config.json'].map((p) => join(root, p)),
    );
    writeFileSync(join(root, 'a', 'b', 'c', 'a3s.config.json'), '{}');
    mkdirSync(join(root, 'a', 'b', '.a3s'));
    writeFileSync(join(root, 'a', 'b', '.a3s', 'instructions.md'), 'obey');
    execFileSync('ln', ['-s', '/tmp', join(root, 'web', '.a3s')]);
    expect(await nestedConfigs(root)).toEqual(
      [
        'a/b/.a3s/instructions.md',
        'a/b/c/a3s.config.json',
        'pkg/.a3s/agents',
        'pkg/.a3s/config.json',
        'web/.a3s',
        'web/a3s.config.json',
      ].map((p) => join(root, p)),
    );
  });

  it('PERM-03: a folder remembered from an earlier search is listed again once it changed, whatever its modification time says', async () => {
    const root = tree();
    // Older than the slack: the next search lists every folder and remembers it; the one after reuses them.
    await new Promise((r) => setTimeout(r, 2100));
    await nestedConfigs(root);
    expect(await nestedConfigs(root)).toHaveLength(3);
    const deep = join(root, 'a', 'b', 'c');
    writeFileSync(join(deep, 'a3s.config.json'), '{}');
    utimesSync(deep, new Date(2000, 0, 1), new Date(2000, 0, 1));
    writeFileSync(join(root, 'pkg', '.a3s', 'instructions.md'), 'obey');
    expect(await nestedConfigs(root)).toEqual(
      [
        'a/b/c/a3s.config.json',
        'pkg/.a3s/agents',
        'pkg/.a3s/config.json',
        'pkg/.a3s/instructions.md',
        'web/a3s.config.json',
      ].map((p) => join(root, p)),
    );
  });

  it('PERM-03: over its folder limit the search fails instead of missing a configuration', async () => {
    const root = tree();
    await expect(nestedConfigs(root, 3)).rejects.toThrow(RangeError);
  });

  it('PERM-03: only a policy marked for it holds commands to them: read-only when they exist, removed when made (also moved in with an old file)', async () => {
    const root = tree();
    const plain = new PermissionPolicy({ deny: ['Write(a3s.config.json)'] });
    const policy = new PermissionPolicy({ deny: ['Write(a3s.config.json)'] });
    holdNestedConfigs(policy);
    expect(holdsNestedConfigs(plain)).toBe(false);
    expect((await filesToHide(root, plain, false, 'bash')).unwritable).toEqual([join(root, 'a3s.config.json')]);
    const before = await filesToHide(root, policy, false, 'bash');
    expect(before.unwritable).toEqual(
      ['a3s.config.json', 'pkg/.a3s/agents', 'pkg/.a3s/config.json', 'web/a3s.config.json'].map((p) => join(root, p)),
    );
    // An old file, kept where no search looks, then moved into place as a folder.
    mkdirSync(join(root, 'pkg', '.a3s', 'effect-log', 'evil'));
    writeFileSync(join(root, 'pkg', '.a3s', 'effect-log', 'evil', 'a3s.config.json'), '{}');
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 50));
    execFileSync('mv', [join(root, 'pkg', '.a3s', 'effect-log', 'evil'), join(root, 'lib')]);
    writeFileSync(join(root, 'a', 'a3s.config.json'), '{}');
    const created = await removeCreatedDenied(root, policy, false, 'bash', before, started);
    expect(created).toEqual({ removed: ['a/a3s.config.json', 'lib/a3s.config.json'] });
    expect(await nestedConfigs(root)).toEqual(
      ['pkg/.a3s/agents', 'pkg/.a3s/config.json', 'web/a3s.config.json'].map((p) => join(root, p)),
    );
  });
});
