// A command cannot hide the files it writes from the change record by writing ignore rules first:
// a folder that ignores itself (`echo '*' > x/.gitignore`), a pattern added to a `.gitignore` or
// to `.git/info/exclude`, in the same call or an earlier one (the write tool's). Only the rules
// there when the workspace was opened hide files; a folder they ignored (`node_modules/`) stays
// unlisted. Both the listing of a small workspace and the one taken through git for a large one.
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesBetween, snapshotWorkspaceWithin, type ToolResult } from '@a3s-code/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, initRepo, sh, tempDir, writeTree } from '../test-support/harness.js';
import { bashTool } from '../tools/bash/bash-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-ignore-evasion-');
const workspaces: LocalWorkspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((w) => w.close()));
  tmp.cleanup();
});

const TREE = {
  '.gitignore': 'node_modules/\n',
  'app.js': 'module.exports = 1;\n',
  'pkg/.gitignore': 'dist/\n',
  'pkg/index.js': 'x\n',
  'pkg/dist/old.js': 'built\n',
  'node_modules/p/i.js': 'dep\n',
  // A cache folder that ignores itself, made before the session (not committed: it ignores its own file).
  '.pytest_cache/.gitignore': '*\n',
  '.pytest_cache/v/last': '{}\n',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`src/f${i}.js`, `${i}\n`])),
};

const repos: string[] = [];
let next = 0;
beforeAll(async () => {
  for (let i = 0; i < 24; i++) {
    const dir = join(tmp.dir, `r${i}`);
    writeTree(dir, TREE);
    initRepo(dir);
    repos.push(dir);
  }
  // The nested `.gitignore` files are older than the workspaces opened below (by more than the clocks' slack).
  await new Promise((r) => setTimeout(r, 1_100));
});

function open(): { ws: LocalWorkspace; dir: string } {
  const dir = repos[next++]!;
  const ws = new LocalWorkspace({ root: dir });
  workspaces.push(ws);
  return { ws, dir };
}

function created(r: ToolResult): string[] {
  expect(r.exitCode).toBe(0);
  const files = (r.metadata as { changed_files: { created: string[] } | null }).changed_files;
  expect(files).not.toBeNull();
  return files!.created;
}

const bash = (ws: LocalWorkspace, command: string) => call(bashTool, ws, { command });

describe('the change record of a command in a small workspace, whatever ignore rules it writes', () => {
  it('a folder the command makes ignore itself: its files are named', async () => {
    const { ws } = open();
    const r = await bash(ws, "mkdir x && echo '*' > x/.gitignore && echo hi > x/a.js");
    expect(created(r)).toEqual(['x/.gitignore', 'x/a.js']);
  });

  it('a .gitignore the write tool wrote before: the files a later command writes under it are named', async () => {
    const { ws } = open();
    const w = await call(writeTool, ws, { file_path: 'x/.gitignore', content: '*\n' });
    expect(w.exitCode).toBe(0);
    expect(created(await bash(ws, 'echo hi > x/a.js'))).toEqual(['x/a.js']);
    expect(created(await bash(ws, 'echo more > x/b.js'))).toEqual(['x/b.js']);
  });

  it('a pattern added to a nested .gitignore of the start: the files it matches are named, what it ignored then is not', async () => {
    const { ws } = open();
    const r = await bash(ws, "echo '*.gen.js' >> pkg/.gitignore && echo g > pkg/a.gen.js && echo b > pkg/dist/new.js");
    expect(created(r)).toEqual(['pkg/a.gen.js']);
  });

  it('a pattern added to the root .gitignore, or to .git/info/exclude: the files it matches are named', async () => {
    const { ws } = open();
    const r = await bash(ws, "echo 'secret/' >> .gitignore && mkdir secret && echo s > secret/s.js");
    expect(created(r)).toEqual(['secret/s.js']);
    const e = await bash(ws, "echo 'hid/' >> .git/info/exclude && mkdir hid && echo h > hid/h.js");
    expect(created(e)).toEqual(['hid/h.js']);
  });

  it('the root .gitignore rewritten by the write tool before any command: the files its new rules match are named', async () => {
    const { ws } = open();
    const w = await call(writeTool, ws, { file_path: '.gitignore', content: 'node_modules/\nsecret/\n' });
    expect(w.exitCode).toBe(0);
    const r = await bash(ws, 'mkdir secret && echo s > secret/s.js && echo n > node_modules/p/n.js');
    expect(created(r)).toEqual(['secret/s.js']);
  });

  it('a folder ignored from the start stays unlisted', async () => {
    const { ws } = open();
    const r = await bash(
      ws,
      'echo n > node_modules/p/new.js && echo d > pkg/dist/d.js && echo c > .pytest_cache/v/c && echo a > b.js',
    );
    expect(created(r)).toEqual(['b.js']);
  });

  it('a folder that ignores itself moved to a new path: the files written there are named', async () => {
    const { ws } = open();
    const r = await bash(ws, 'mkdir -p src && mv .pytest_cache src/evil && echo pwn > src/evil/payload.sh');
    expect(created(r)).toEqual(['src/evil/.gitignore', 'src/evil/payload.sh', 'src/evil/v/last']);
    // And in a later call, the folder is still not trusted.
    expect(created(await bash(ws, 'echo more > src/evil/more.sh'))).toEqual(['src/evil/more.sh']);
  });
});

describe('the change record of a large workspace taken through git, whatever ignore rules are written', () => {
  const MAX = 10;
  const snap = async (ws: LocalWorkspace) => {
    const s = await snapshotWorkspaceWithin(ws, new AbortController().signal, 5000, MAX);
    expect(s.snapshot).toBeDefined();
    return s.snapshot;
  };
  /** A workspace of more than MAX files (git names fewer: they are committed). */
  const large = open;

  it('a folder made to ignore itself before the first listing: the files later written under it are named', async () => {
    const { ws, dir } = large();
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x/.gitignore'), '*\n');
    const before = await snap(ws);
    writeFileSync(join(dir, 'x/a.js'), 'hi\n');
    writeFileSync(join(dir, 'node_modules/p/new.js'), 'n\n');
    expect(changesBetween(before, await snap(ws))?.created).toEqual(['x/a.js']);
  });

  it('a pattern added to a nested .gitignore, or to the root one: the files it matches are named', async () => {
    const { ws, dir } = large();
    const before = await snap(ws);
    appendFileSync(join(dir, 'pkg/.gitignore'), '*.gen.js\n');
    writeFileSync(join(dir, 'pkg/a.gen.js'), 'g\n');
    // The folder whose rules changed is taken with none: what they ignored then is named too (more, never less).
    expect(changesBetween(before, await snap(ws))?.created).toEqual(['pkg/a.gen.js', 'pkg/dist/old.js']);
    const again = await snap(ws);
    appendFileSync(join(dir, '.gitignore'), 'secret/\n');
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret/s.js'), 's\n');
    // The root's rules changed: the tree is taken with the root's rules of the start (node_modules/ stays out,
    // the folder that ignores itself is named).
    expect(changesBetween(again, await snap(ws))?.created).toEqual([
      '.pytest_cache/.gitignore',
      '.pytest_cache/v/last',
      'secret/s.js',
    ]);
    const last = await snap(ws);
    appendFileSync(join(dir, '.git/info/exclude'), 'hid/\n');
    mkdirSync(join(dir, 'hid'));
    writeFileSync(join(dir, 'hid/h.js'), 'h\n');
    writeFileSync(join(dir, 'node_modules/p/new.js'), 'n\n');
    // The exclude file moved within this pair of snapshots: unknown, as before; the next pair names the file.
    expect(changesBetween(last, await snap(ws))).toBeNull();
    const after = await snap(ws);
    writeFileSync(join(dir, 'hid/h2.js'), 'h\n');
    expect(changesBetween(after, await snap(ws))?.created).toEqual(['hid/h2.js']);
  });

  it('a folder that ignores itself moved to a new path: the files written there are named', async () => {
    const { ws, dir } = large();
    const before = await snap(ws);
    mkdirSync(join(dir, 'src/evil'), { recursive: true });
    renameSync(join(dir, '.pytest_cache'), join(dir, 'src/evil/c'));
    writeFileSync(join(dir, 'src/evil/c/payload.sh'), 'pwn\n');
    expect(changesBetween(before, await snap(ws))?.created).toEqual([
      'src/evil/c/.gitignore',
      'src/evil/c/payload.sh',
      'src/evil/c/v/last',
    ]);
  });

  it('a tracked .gitignore marked assume-unchanged, then given new rules: the files they match are named', async () => {
    const { ws, dir } = large();
    const before = await snap(ws);
    sh(dir, 'update-index', '--assume-unchanged', 'pkg/.gitignore');
    appendFileSync(join(dir, 'pkg/.gitignore'), '*\n');
    writeFileSync(join(dir, 'pkg/evil.sh'), 'payload\n');
    const mid = await snap(ws);
    expect(changesBetween(before, mid)?.created).toEqual(['pkg/dist/old.js', 'pkg/evil.sh']);
    writeFileSync(join(dir, 'pkg/evil2.sh'), 'payload\n');
    expect(changesBetween(mid, await snap(ws))?.created).toEqual(['pkg/evil2.sh']);
  });

  it('with no ignore file changed, a folder ignored from the start stays unlisted', async () => {
    const { ws, dir } = large();
    const before = await snap(ws);
    writeFileSync(join(dir, 'node_modules/p/new.js'), 'n\n');
    writeFileSync(join(dir, 'pkg/dist/d.js'), 'd\n');
    writeFileSync(join(dir, 'b.js'), 'b\n');
    expect(changesBetween(before, await snap(ws))?.created).toEqual(['b.js']);
  });
});
