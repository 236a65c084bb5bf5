// Read deny rules and what git keeps: hiding `.env` from a command does not hide a copy git holds
// (committed, staged, stashed, or an object of its current content), which `git show HEAD:.env`
// would print. When git holds a covered file, the commands the model runs do not see `.git`, and
// say why; the typed git tool still works. Real git, real namespaces, real files.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, DENY, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });

const ATTACKS = [
  'git show HEAD:.env',
  'git cat-file -p HEAD:.env',
  'git log -p',
  'git archive HEAD | tar -xO .env',
  'git grep -h KEY HEAD -- secret',
  'git show :.env; git stash list -p',
  'git cat-file --batch-all-objects --batch',
  "python3 -c \"import zlib,glob; [print(zlib.decompress(open(f,'rb').read())) for f in glob.glob('.git/objects/??/*')]\"",
  'git --git-dir=.git show HEAD:.env; GIT_DIR=.git git show HEAD:.env',
];
const bashCalls = (commands: readonly string[]) => commands.map((command, i) => call(`b${i}`, 'bash', { command }));
const options = { permissions: { ...DENY, allow: ['bash', 'git'] } };

describe("git's store under read deny rules", () => {
  it('PERM-02: a committed secret is not printed from git history by any command; the output says why', async () => {
    const dir = workspace();
    git(dir, 'add', '.env', 'secret', 'src');
    git(dir, 'commit', '-qm', 'add config');
    const { session, events } = await run(
      dir,
      [...bashCalls(ATTACKS), call('g', 'git', { operation: 'status' })],
      options,
    );
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
    const got = results(session);
    expect(got.get('b0')?.output).toContain(
      '[.git is hidden from this command: a commit holds a file the read rules cover, and git would print it; use the git tool, which keeps such files out]',
    );
    expect(got.get('g')).toMatchObject({ ok: true });
  }, 60_000);

  it('PERM-02: a secret only staged, only in a commit since removed, or only left as an object is held too', async () => {
    const staged = workspace();
    git(staged, 'add', '.env');
    const removed = workspace();
    git(removed, 'add', '.env');
    git(removed, 'commit', '-qm', 'oops');
    git(removed, 'rm', '-q', '--cached', '.env');
    git(removed, 'commit', '-qm', 'untrack');
    const dangling = workspace();
    git(dangling, 'add', '.env');
    git(dangling, 'reset', '-q');
    const reasons = {
      [staged]: 'the index holds a file the read rules cover',
      [removed]: 'a commit holds a file the read rules cover',
      [dangling]: 'its objects hold the content of a file the read rules cover',
    };
    for (const [dir, why] of Object.entries(reasons)) {
      const { session, events } = await run(
        dir,
        bashCalls(['git show :.env', 'git log --all -p', 'git cat-file --batch-all-objects --batch']),
        options,
      );
      expectNoLeak(dir, session, events, [SECRET]);
      expect(results(session).get('b0')?.output).toContain(`[.git is hidden from this command: ${why}`);
    }
  }, 60_000);

  it('PERM-02: git a covered file never reached works in commands as before; without the rule git prints it', async () => {
    const dir = workspace();
    writeFileSync(join(dir, '.gitignore'), '.env\nsecret/\n');
    const { session } = await run(dir, bashCalls(['git status --short', 'git log --oneline | wc -l']), options);
    const got = results(session);
    expect(got.get('b0')).toMatchObject({ ok: true, output: expect.stringContaining('.gitignore') });
    expect(got.get('b0')?.output).not.toContain('.git is hidden');
    expect(got.get('b1')?.output.trim()).toBe('1');

    const open = workspace();
    git(open, 'add', '.env');
    git(open, 'commit', '-qm', 'add');
    const plain = await run(open, bashCalls(['git show HEAD:.env']), { permissions: { allow: ['bash'] } });
    expect(results(plain.session).get('b0')?.output).toContain(SECRET);
  }, 60_000);
});
