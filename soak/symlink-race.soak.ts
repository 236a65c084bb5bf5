// Symlink race, 60 s: a child process swaps `race/` between a real folder and a symbolic link to
// a folder outside the workspace as fast as it can rename, while read, ls and write (into existing
// and into missing folders) loop through it. Anything outside that is read, listed or created is
// a leak: the soak prints the counts and exits 1 on any leak. Uses the built package.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { A3sError, type Tool, type ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { LocalWorkspace, lsTool, readTool, writeTool } from '@a3s-code/tools-workspace';

const RACE_MS = Number(process.env.SOAK_RACE_MS ?? 60_000);
const LOOPS = 3;

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-soak-race-')));
const root = join(sandbox, 'ws');
const outside = join(sandbox, 'outside');
const marker = `OUTSIDE-${randomBytes(8).toString('hex')}`;
mkdirSync(join(root, 'race'), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(root, 'race', 'f.txt'), 'inside\n');
writeFileSync(join(outside, 'f.txt'), `${marker}\n`);
writeFileSync(join(outside, `${marker}.txt`), 'listed\n');
symlinkSync(outside, join(root, 'race-link'));

// Renames only; a folder a write created while `race` was missing is moved to strays/.
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

const ws = new LocalWorkspace({ root });
const run = (tool: Tool, args: Record<string, unknown>): Promise<ToolResult> =>
  (tool as Tool<unknown>).execute(args, createToolContext({ workspace: ws, toolName: tool.name, callId: 'soak', runId: 'soak', sessionId: 'soak' }));

const before = listTree(outside);
const counts = { reads: 0, 'reads inside': 0, writes: 0, 'writes done': 0, lists: 0, refused: 0, 'other errors': 0, 'outside reads': 0, 'outside listings': 0, 'outside files': 0 };

async function attempt(kind: 'reads' | 'writes' | 'lists', body: () => Promise<ToolResult>): Promise<void> {
  counts[kind]++;
  try {
    const { output } = await body();
    if (output.includes(marker)) counts[kind === 'lists' ? 'outside listings' : 'outside reads']++;
    if (kind === 'reads' && output.includes('inside')) counts['reads inside']++;
    if (kind === 'writes') counts['writes done']++;
  } catch (error) {
    if (A3sError.hasCode(error, 'WORKSPACE_PATH')) counts.refused++;
    else if (A3sError.isInstance(error)) counts['other errors']++;
    else throw error;
  }
}

let swaps = '';
const t0 = Date.now();
const exited = new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, ['-e', SWAP, root, String(RACE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (b: Buffer) => (swaps += b.toString()));
  child.on('exit', (code) => resolve(code));
});
let running = true;
async function loop(n: number): Promise<void> {
  for (let i = 0; running; i++) {
    await attempt('reads', () => run(readTool, { file_path: 'race/f.txt' }));
    await attempt('writes', () => run(writeTool, { file_path: `race/w${n}-${i % 20}.txt`, content: 'x\n' }));
    await attempt('writes', () => run(writeTool, { file_path: `race/d${n}-${i % 50}/deep/w.txt`, content: 'x\n' }));
    if (i % 4 === 0) await attempt('lists', () => run(lsTool, { path: 'race' }));
  }
}
const loops = Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
const swapperExit = await exited;
running = false;
await loops;
const leaked = listTree(outside).filter((p) => !before.includes(p));
counts['outside files'] = leaked.length;
rmSync(sandbox, { recursive: true, force: true });

console.log(`symlink race: ${((Date.now() - t0) / 1000).toFixed(0)} s, ${Number(swaps).toLocaleString()} swaps, ${LOOPS} concurrent tool loops`);
console.log('| count | value |\n|---|---:|');
for (const [name, value] of Object.entries(counts)) console.log(`| ${name} | ${value.toLocaleString()} |`);
if (leaked.length > 0) console.log(`created outside: ${leaked.slice(0, 20).join(', ')}`);
const leak = counts['outside reads'] + counts['outside listings'] + counts['outside files'];
if (swapperExit !== 0) console.log(`swapper exited with ${swapperExit}`);
console.log(leak === 0 && swapperExit === 0 ? 'PASS: nothing outside was read, listed or created' : `FAIL: ${leak} leak(s)`);
process.exit(leak === 0 && swapperExit === 0 ? 0 : 1);
