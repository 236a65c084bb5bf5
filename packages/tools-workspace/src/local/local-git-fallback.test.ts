// Where git's configuration cannot be pinned (no mount namespace, no Perl), git runs as before:
// every driver the listing names is switched off by -c settings. Pinning is taken away here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { initRepo, tempDir, writeTree } from '../test-support/harness.js';

vi.mock('./git-pin.js', async (actual) => ({
  ...(await actual<typeof import('./git-pin.js')>()),
  pinnedGit: () => undefined,
}));

const { LocalGit } = await import('./local-git.js');
const sandbox = tempDir('a3s-gitfb-');
afterAll(() => sandbox.cleanup());

describe('git without pinning', () => {
  it('status, diff and stash run with the listed filter and textconv switched off', async () => {
    const root = join(sandbox.dir, 'repo');
    const marker = join(sandbox.dir, 'ran');
    writeTree(root, { 'a.txt': 'one\n' });
    initRepo(root);
    writeFileSync(join(root, '.gitattributes'), '* filter=x diff=y\n');
    const config = readFileSync(join(root, '.git', 'config'), 'utf8');
    writeFileSync(
      join(root, '.git', 'config'),
      `${config}[filter "x"]\n\tclean = "touch ${marker}; cat"\n\trequired = true\n[diff "y"]\n\ttextconv = "touch ${marker}; cat"\n`,
    );
    const git = new LocalGit(root);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    const st = await git.run(['status', '--porcelain']);
    expect(st.exitCode, st.stderr.head).toBe(0);
    const diff = await git.run(['diff', '--no-ext-diff', '--no-textconv']);
    expect(diff.exitCode, diff.stderr.head).toBe(0);
    expect(diff.stdout.head).toContain('+two');
    expect((await git.run(['stash', 'push', '-m', 'x'])).exitCode).toBe(0);
    expect((await git.run(['stash', 'pop', '--quiet'])).exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
