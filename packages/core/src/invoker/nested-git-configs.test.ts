// What a command adds under a key git may run to the configuration of a repository nested in the
// workspace is taken out again; what was there before, and a change made between commands, stay.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FOLDER_WALK_LIMIT, forgetFolderWalks } from './folder-walk.js';
import { forgetNested, mendNested, prepareNested } from './nested-git-configs.js';

const base = mkdtempSync(join(tmpdir(), 'a3s-nested-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
afterEach(() => {
  forgetNested();
  forgetFolderWalks();
});
let n = 0;
const workspace = (): string => {
  const dir = join(base, `w${n++}`);
  mkdirSync(dir);
  return dir;
};

describe("a nested repository's configuration", () => {
  it('takes out what a command added, in a repository it made deep in a folder that was there, and keeps the rest', async () => {
    const root = workspace();
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    execFileSync('git', ['init', '-q', join(root, 'old')]);
    execFileSync('git', ['config', 'alias.lg', '!git log'], { cwd: join(root, 'old') });
    await prepareNested(root);
    const started = Date.now() - 50;
    // The command: a new repository in an old folder, and an alias added to the old repository.
    execFileSync('git', ['init', '-q', join(root, 'a', 'b', 'c', 'pkg')]);
    appendFileSync(join(root, 'a', 'b', 'c', 'pkg', '.git', 'config'), '[diff]\n\texternal = touch PWNED\n');
    appendFileSync(join(root, 'old', '.git', 'config'), '[alias]\n\tst = !touch PWNED\n');
    const mended = await mendNested(root, started, new Set());
    expect(mended.restored.sort()).toEqual(['a/b/c/pkg/.git/config (diff.external)', 'old/.git/config (alias.st)']);
    expect(readFileSync(join(root, 'a', 'b', 'c', 'pkg', '.git', 'config'), 'utf8')).toMatch(/bare = false/);
    const old = readFileSync(join(root, 'old', '.git', 'config'), 'utf8');
    expect(old).toContain('lg = !git log');
    expect(old).not.toContain('PWNED');
    // Nothing changed since: nothing to say.
    expect(await mendNested(root, Date.now(), new Set())).toEqual({ restored: [] });
  });

  it('leaves a change made before the command started, files mended with the workspace own, and node_modules', async () => {
    const root = workspace();
    execFileSync('git', ['init', '-q', join(root, 'lib')]);
    execFileSync('git', ['init', '-q', join(root, 'watched')]);
    await prepareNested(root);
    appendFileSync(join(root, 'lib', '.git', 'config'), '[alias]\n\tmine = !echo user\n');
    execFileSync('git', ['init', '-q', join(root, 'node_modules', 'x')]);
    await new Promise((r) => setTimeout(r, 120));
    const started = Date.now() - 50;
    appendFileSync(join(root, 'watched', '.git', 'config'), '[alias]\n\tst = !touch PWNED\n');
    appendFileSync(join(root, 'node_modules', 'x', '.git', 'config'), '[alias]\n\tst = !touch PWNED\n');
    const mended = await mendNested(root, started, new Set([join(root, 'watched', '.git', 'config')]));
    expect(mended).toEqual({ restored: [] });
    expect(readFileSync(join(root, 'lib', '.git', 'config'), 'utf8')).toContain('mine = !echo user');
  });

  it('says so when the workspace has more folders than it looks at', async () => {
    const root = workspace();
    for (let i = 0; i < 6; i++) mkdirSync(join(root, `d${i}`));
    await prepareNested(root);
    expect((await mendNested(root, Date.now(), new Set(), 5)).problem).toMatch(/more than 5 folders in the workspace/);
    expect(await mendNested(root, Date.now(), new Set(), FOLDER_WALK_LIMIT)).toEqual({ restored: [] });
  });
});
