import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/core';
import { call, tempDir } from '../test-support/harness.js';
import { lsTool } from '../tools/ls/ls-tool.js';
import { readTool } from '../tools/read/read-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { LocalWorkspace } from './local-workspace.js';

// `race` flips between a real folder and a symbolic link to `outside` as fast as a child process
// can rename, while the tools read, list and write through it.
const RACE_MS = 3_000;
const sandbox = tempDir('a3s-race-');
const root = join(sandbox.dir, 'ws');
const outside = join(sandbox.dir, 'outside');
const marker = `OUTSIDE-${randomBytes(8).toString('hex')}`;
let swapper: ChildProcess | undefined;

afterAll(() => {
  if (swapper?.exitCode === null) swapper.kill('SIGKILL');
  sandbox.cleanup();
});

// Renames only: race -> race-dir, race-link -> race, race -> race-link, race-dir -> race. A write
// that lands while `race` is missing creates a new folder there; it is moved to strays/.
const SWAP = `
const fs = require('fs');
const [root, ms] = [process.argv[1], Number(process.argv[2])];
const end = Date.now() + ms;
let swaps = 0, strays = 0;
fs.mkdirSync(root + '/strays', { recursive: true });
function place(from, to) {
  for (;;) {
    try { fs.renameSync(from, to); return; } catch { try { fs.renameSync(to, root + '/strays/' + strays++); } catch {} }
  }
}
while (Date.now() < end) {
  for (let i = 0; i < 50; i++) {
    fs.renameSync(root + '/race', root + '/race-dir');
    place(root + '/race-link', root + '/race');
    fs.renameSync(root + '/race', root + '/race-link');
    place(root + '/race-dir', root + '/race');
    swaps += 2;
  }
}
process.stdout.write(String(swaps));
`;

function listTree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

describe('symlink races', () => {
  it('a folder swapped with a link to outside, mid-call, never leaks outside content to read/ls nor lets write create files outside', async () => {
    mkdirSync(join(root, 'race'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(root, 'race', 'f.txt'), 'inside\n');
    writeFileSync(join(outside, 'f.txt'), `${marker}\n`);
    writeFileSync(join(outside, `${marker}.txt`), 'listed\n');
    symlinkSync(outside, join(root, 'race-link'));
    const ws = new LocalWorkspace({ root });
    const before = listTree(outside);

    let swapOutput = '';
    const exited = new Promise<void>((resolve) => {
      swapper = spawn(process.execPath, ['-e', SWAP, root, String(RACE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
      swapper.stdout!.on('data', (b: Buffer) => (swapOutput += b.toString()));
      swapper.on('exit', () => resolve());
    });
    const counts = { reads: 0, readsInside: 0, writes: 0, written: 0, lists: 0, refused: 0, otherErrors: 0, outsideReads: 0, outsideListings: 0 };
    const attempt = async (kind: 'reads' | 'writes' | 'lists', body: () => Promise<string>): Promise<void> => {
      counts[kind]++;
      try {
        const output = await body();
        if (output.includes(marker)) counts[kind === 'lists' ? 'outsideListings' : 'outsideReads']++;
        if (kind === 'reads' && output.includes('inside')) counts.readsInside++;
        if (kind === 'writes') counts.written++;
      } catch (error) {
        if (A3sError.hasCode(error, 'WORKSPACE_PATH')) counts.refused++;
        else if (A3sError.isInstance(error)) counts.otherErrors++;
        else throw error;
      }
    };
    let running = true;
    const loop = async (n: number): Promise<void> => {
      for (let i = 0; running; i++) {
        await attempt('reads', async () => (await call(readTool, ws, { file_path: 'race/f.txt' })).output);
        await attempt('writes', async () => (await call(writeTool, ws, { file_path: `race/w${n}-${i % 20}.txt`, content: 'x\n' })).output);
        await attempt('writes', async () => (await call(writeTool, ws, { file_path: `race/d${n}-${i}/deep/w.txt`, content: 'x\n' })).output);
        if (i % 4 === 0) await attempt('lists', async () => (await call(lsTool, ws, { path: 'race' })).output);
      }
    };
    const loops = Promise.all([loop(0), loop(1), loop(2)]);
    await exited;
    running = false;
    await loops;

    expect(Number(swapOutput)).toBeGreaterThan(100);
    expect(counts.reads).toBeGreaterThan(50);
    expect(counts.readsInside).toBeGreaterThan(0);
    expect(counts.outsideReads, JSON.stringify(counts)).toBe(0);
    expect(counts.outsideListings, JSON.stringify(counts)).toBe(0);
    expect(listTree(outside), JSON.stringify(counts)).toEqual(before);
  }, 20_000);
});
