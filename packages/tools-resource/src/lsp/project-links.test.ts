import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkOutside } from './project-links.js';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-links-')));
afterAll(() => rmSync(top, { recursive: true, force: true }));
let n = 0;
/** A fresh folder holding `files` under `top`; returns its path. */
function tree(files: Record<string, string>): string {
  const root = join(top, `t${++n}`);
  mkdirSync(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}
const go = { id: 'go', foundReads: ['.go', '.c'] };
const walk = (root: string) => linkOutside(go, root, new AbortController().signal);

describe('links leading out of the workspace, for a server that finds files by folder', () => {
  it('a folder outside counts only when it holds (at any depth, or through a link) a file the server reads', async () => {
    const ws = tree({ 'go.mod': 'module x\n', 'main.go': 'package main\n' });
    const docs = tree({ 'notes/readme.md': 'hello\n', '.env': 'KEY=1\n' });
    symlinkSync(docs, join(ws, 'docs'));
    expect(await walk(ws)).toBeUndefined();

    const deep = tree({ 'a/b/c/secret.go': 'package secret\n' });
    const ws2 = tree({ 'go.mod': 'module x\n' });
    symlinkSync(deep, join(ws2, 'vendor2'));
    expect(await walk(ws2)).toMatch(
      /the go server's project reads .*t\d+ \(vendor2 links to it\), outside the workspace/,
    );

    const relay = tree({ 'readme.md': 'x\n' });
    symlinkSync(deep, join(relay, 'inner'));
    const ws3 = tree({ 'go.mod': 'module x\n' });
    symlinkSync(relay, join(ws3, 'lib'));
    expect(await walk(ws3)).toContain('(lib links to it)');
  });

  it('a file outside counts by its extension or its target’s; a server finding no files by folder is never walked', async () => {
    const out = tree({ 'key.go': 'package k\n', 'plain.txt': 'x\n' });
    const ws = tree({ 'go.mod': 'module x\n' });
    symlinkSync(join(out, 'plain.txt'), join(ws, 'notes.txt'));
    expect(await walk(ws)).toBeUndefined();
    symlinkSync(join(out, 'plain.txt'), join(ws, 'k.go'));
    expect(await walk(ws)).toContain('(k.go links to it)');
    expect(await linkOutside({ id: 'ts' }, ws, new AbortController().signal)).toBeUndefined();
  });
});
