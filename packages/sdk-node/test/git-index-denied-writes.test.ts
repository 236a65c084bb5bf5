// What a command puts in git's index or history where a write deny rule forbids it: a file that
// never was on disk (`git update-index --cacheinfo`), committed or only staged, or one checked out
// from another branch (the sweep removes the file; its index entry goes too). The command's commit
// adding it is undone, its other changes left staged; commits of allowed paths stand.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, results, run } from './read-deny-kit.js';
import { tempRepo } from './kit.js';

const bash = (id: string, command: string) => call(id, 'bash', { command });
const DENY = { deny: ['Write(.github/**)'] };
const ID = '-c user.name=t -c user.email=t@example.com';
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
const removedBy = (metadata: unknown): string[] =>
  (metadata as { denied_writes?: { removed: string[] } } | undefined)?.denied_writes?.removed ?? [];
const PLANT = `h=$(printf 'name: evil\\n' | git hash-object -w --stdin) && git update-index --add --cacheinfo 100644,$h,.github/workflows/ci.yml`;

describe("git's index and history under a write deny rule", () => {
  it('PERM-02: a denied path committed without ever being on disk is undone; the commit of allowed paths stands', async () => {
    const dir = tempRepo();
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const { session } = await run(
      dir,
      [
        bash(
          'b1',
          `echo 'export const x = 1;' > src/x.ts && git add src/x.ts && ${PLANT} && git ${ID} commit -qm chore`,
        ),
        bash('b2', `echo 'export const y = 2;' > src/y.ts && git add src/y.ts && git ${ID} commit -qm ok`),
      ],
      { governance: { yolo: true }, permissions: DENY },
    );
    const got = results(session);
    expect(removedBy(got.get('b1')?.metadata)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^commit [0-9a-f]{12} \(undone/),
        ".github/workflows/ci.yml (git's index)",
      ]),
    );
    expect(git(dir, 'ls-files')).not.toContain('.github');
    // The first commit was undone (its allowed change stayed staged and went into the second).
    expect(git(dir, 'rev-list', '--count', `${head}..HEAD`).trim()).toBe('1');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toContain('src/x.ts');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toContain('src/y.ts');
    expect(git(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('.github');
    expect(removedBy(got.get('b2')?.metadata)).toEqual([]);
  });

  it('PERM-02: a denied path staged from the object store or checked out from another branch leaves the index', async () => {
    const dir = tempRepo();
    git(dir, 'checkout', '-qb', 'evil');
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(dir, '.github', 'workflows', 'from-branch.yml'), 'name: evil\n');
    execFileSync('git', [...ID.split(' '), 'add', '.'], { cwd: dir });
    execFileSync('git', [...ID.split(' '), 'commit', '-qm', 'evil'], { cwd: dir });
    git(dir, 'checkout', '-q', '-');
    const { session } = await run(dir, [bash('b1', PLANT), bash('b2', 'git checkout evil -- .github')], {
      governance: { yolo: true },
      permissions: DENY,
    });
    const got = results(session);
    expect(removedBy(got.get('b1')?.metadata)).toEqual([".github/workflows/ci.yml (git's index)"]);
    expect(removedBy(got.get('b2')?.metadata)).toEqual(
      expect.arrayContaining([".github/workflows/from-branch.yml (git's index)"]),
    );
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('');
    expect(git(dir, 'status', '--porcelain')).not.toContain('.github');
  });
});
