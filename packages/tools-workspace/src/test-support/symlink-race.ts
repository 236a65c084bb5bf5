/**
 * The symlink race shared by the test suite (3 s) and `pnpm soak` (60 s): a child process swaps
 * `race/` between a real folder and a symbolic link to a folder outside the workspace as fast as
 * it can rename, while `read`, `ls` and `write` (into existing and into missing folders) loop
 * through it. Anything outside that is read, listed or created is a leak.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { A3sError, type Tool, type ToolResult } from '@a3s-code/core';

/** The tools the race drives, and how to call one on the workspace rooted at `root`. */
export interface RaceTools {
  readonly read: Tool;
  readonly write: Tool;
  readonly ls: Tool;
  /** Calls `tool` with `args` on a workspace rooted at `root` (made once per race). */
  readonly callerFor: (root: string) => (tool: Tool, args: Record<string, unknown>) => Promise<ToolResult>;
}

/** What a race saw. */
export interface RaceCounts {
  reads: number;
  readsInside: number;
  writes: number;
  writesDone: number;
  lists: number;
  refused: number;
  otherErrors: number;
  outsideReads: number;
  outsideListings: number;
  outsideFiles: number;
}

/** The outcome of {@link runSymlinkRace}. */
export interface RaceOutcome {
  readonly counts: RaceCounts;
  readonly swaps: number;
  readonly swapperExit: number | null;
  /** Paths created under the outside folder (relative to it). */
  readonly createdOutside: readonly string[];
}

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

/** Every path below `dir`, relative to it, sorted. */
export function listTree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * Runs the race for `ms` milliseconds with `loops` concurrent tool loops, in `sandbox` (a real,
 * empty folder: the workspace is `sandbox/ws`, the outside folder `sandbox/outside`).
 */
export async function runSymlinkRace(
  sandbox: string,
  ms: number,
  loops: number,
  tools: RaceTools,
): Promise<RaceOutcome> {
  const root = join(sandbox, 'ws');
  const outside = join(sandbox, 'outside');
  const marker = `OUTSIDE-${randomBytes(8).toString('hex')}`;
  mkdirSync(join(root, 'race'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(root, 'race', 'f.txt'), 'inside\n');
  writeFileSync(join(outside, 'f.txt'), `${marker}\n`);
  writeFileSync(join(outside, `${marker}.txt`), 'listed\n');
  symlinkSync(outside, join(root, 'race-link'));
  const call = tools.callerFor(root);
  const before = listTree(outside);
  const counts: RaceCounts = {
    reads: 0,
    readsInside: 0,
    writes: 0,
    writesDone: 0,
    lists: 0,
    refused: 0,
    otherErrors: 0,
    outsideReads: 0,
    outsideListings: 0,
    outsideFiles: 0,
  };

  const attempt = async (
    kind: 'reads' | 'writes' | 'lists',
    tool: Tool,
    args: Record<string, unknown>,
  ): Promise<void> => {
    counts[kind]++;
    try {
      const { output } = await call(tool, args);
      if (output.includes(marker)) counts[kind === 'lists' ? 'outsideListings' : 'outsideReads']++;
      if (kind === 'reads' && output.includes('inside')) counts.readsInside++;
      if (kind === 'writes') counts.writesDone++;
    } catch (error) {
      if (A3sError.hasCode(error, 'WORKSPACE_PATH')) counts.refused++;
      else if (A3sError.isInstance(error)) counts.otherErrors++;
      else throw error;
    }
  };

  let swapOutput = '';
  const exited = new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['-e', SWAP, root, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (b: Buffer) => (swapOutput += b.toString()));
    child.on('exit', (code) => resolve(code));
  });
  let running = true;
  const loop = async (n: number): Promise<void> => {
    for (let i = 0; running; i++) {
      await attempt('reads', tools.read, { file_path: 'race/f.txt' });
      await attempt('writes', tools.write, { file_path: `race/w${n}-${i % 20}.txt`, content: 'x\n' });
      await attempt('writes', tools.write, { file_path: `race/d${n}-${i % 50}/deep/w.txt`, content: 'x\n' });
      if (i % 4 === 0) await attempt('lists', tools.ls, { path: 'race' });
    }
  };
  const looping = Promise.all(Array.from({ length: loops }, (_, n) => loop(n)));
  const swapperExit = await exited;
  running = false;
  await looping;
  const createdOutside = listTree(outside).filter((p) => !before.includes(p));
  counts.outsideFiles = createdOutside.length;
  return { counts, swaps: Number(swapOutput), swapperExit, createdOutside };
}
