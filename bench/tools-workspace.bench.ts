// Benchmarks of @a3s-code/tools-workspace (issue 6). On a large real tree (>= 50,000 files:
// ten hard-linked copies of this repository's installed node_modules/.pnpm), each grep mode is
// timed against running ripgrep directly (goal <= 1.3x rg), glob against `rg --files` (goal
// <= 1.3x), and a 32-file batched read against 32 single reads.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Tool, ToolContext, ToolResult, WorkspaceServices } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { LocalWorkspace, globTool, grepTool, readTool } from '@a3s-code/tools-workspace';
import { fmt, gc, median, peakRssMiB, time } from './util.js';

const COPIES = 10;
const RUNS = 5;
const repo = resolve(import.meta.dirname, '..');
const source = join(repo, 'node_modules', '.pnpm');
const tree = join(tmpdir(), 'a3s-bench-tree-v1');

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += countFiles(join(dir, e.name));
    else if (e.isFile()) n++;
  }
  return n;
}

/** Hard-links a tree (falls back to copying across file systems); symlinks stay symlinks. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const a = join(from, e.name);
    const b = join(to, e.name);
    if (e.isDirectory()) linkTree(a, b);
    else if (e.isFile()) {
      try {
        linkSync(a, b);
      } catch {
        cpSync(a, b);
      }
    } else if (e.isSymbolicLink()) cpSync(a, b, { verbatimSymlinks: true });
  }
}

if (!existsSync(join(tree, '.complete'))) {
  rmSync(tree, { recursive: true, force: true });
  for (let i = 0; i < COPIES; i++) linkTree(source, join(tree, `copy-${i}`));
  writeFileSync(join(tree, '.complete'), String(Date.now()));
}
const files = countFiles(tree);
console.log(`tree: ${tree}, ${files.toLocaleString()} files (${COPIES} hard-linked copies of node_modules/.pnpm)`);
if (files < 50_000) console.log('WARNING: fewer than 50,000 files');

const ws = new LocalWorkspace({ root: tree });
const backend = await ws.search!.backend();
const rg = (backend as unknown as { rg: string }).rg;
console.log(`engine: ${backend.engine} (${rg})`);

function context(workspace: WorkspaceServices, name: string): ToolContext {
  return createToolContext({ workspace, toolName: name, callId: 'bench', runId: 'bench', sessionId: 'bench' });
}
const run = (tool: Tool, args: Record<string, unknown>): Promise<ToolResult> =>
  (tool as Tool<unknown>).execute(args, context(ws, tool.name));

/** Median wall time of `fn` over RUNS runs after one warm-up. */
async function bench(fn: () => unknown): Promise<number> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc();
    xs.push(await time(fn));
  }
  return median(xs);
}

const BASE = ['--no-config', '--hidden', '--no-require-git'];
function rgDirect(args: string[]): () => void {
  return () => {
    // An explicit path and no stdin: given a readable stdin and no path, rg searches stdin.
    const r = spawnSync(rg, [...BASE, ...args, '.'], {
      cwd: tree,
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr.toString()}`);
  };
}

function row(label: string, ours: number, peer: number, peerLabel: string): void {
  const ratio = ours / peer;
  console.log(
    `${label.padEnd(44)} ${fmt(ours, 1).padStart(8)} ms   ${peerLabel.padEnd(34)} ${fmt(peer, 1).padStart(8)} ms   ${fmt(ratio, 2)}x ${ratio <= 1.3 ? 'ok' : 'OVER 1.3x'}`,
  );
}

const pattern = 'deprecated';
const summary = await run(grepTool, { pattern, output_mode: 'summary' });
console.log(`pattern '${pattern}': ${summary.output}\n`);
console.log(`${'ours'.padEnd(44)} ${'median'.padStart(11)}   ${'peer'.padEnd(34)} ${'median'.padStart(11)}   ratio`);

row(
  'grep content (first page, limit 200)',
  await bench(() => run(grepTool, { pattern })),
  await bench(rgDirect(['-n', pattern])),
  `rg -n ${pattern}`,
);
row(
  'grep content, -C 2 (first page)',
  await bench(() => run(grepTool, { pattern, '-C': 2 })),
  await bench(rgDirect(['-n', '-C', '2', pattern])),
  `rg -n -C 2 ${pattern}`,
);
const rare = 'zqxj_never_here';
row(
  'grep content, no match (full scan, sorted)',
  await bench(() => run(grepTool, { pattern: rare })),
  await bench(rgDirect(['-n', rare])),
  `rg -n ${rare}`,
);
row(
  'grep content, all pages (limit 1000 each)',
  await bench(async () => {
    let cursor: string | undefined;
    do {
      const r = await run(grepTool, { pattern, limit: 1000, ...(cursor ? { cursor } : {}) });
      cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
    } while (cursor);
  }),
  await bench(rgDirect(['-n', pattern])),
  `rg -n ${pattern}`,
);
row(
  'grep files_with_matches (limit 200)',
  await bench(() => run(grepTool, { pattern, output_mode: 'files_with_matches' })),
  await bench(rgDirect(['-l', pattern])),
  `rg -l ${pattern}`,
);
row(
  'grep count (limit 200)',
  await bench(() => run(grepTool, { pattern, output_mode: 'count' })),
  await bench(rgDirect(['-c', pattern])),
  `rg -c ${pattern}`,
);
row(
  'grep summary',
  await bench(() => run(grepTool, { pattern, output_mode: 'summary' })),
  await bench(rgDirect(['-c', pattern])),
  `rg -c ${pattern}`,
);
row(
  'grep files_with_matches, glob *.md',
  await bench(() => run(grepTool, { pattern, output_mode: 'files_with_matches', glob: '*.md' })),
  await bench(rgDirect(['-l', '-g', '*.md', pattern])),
  `rg -l -g '*.md' ${pattern}`,
);
row(
  'glob **/*.js, sort path (limit 200)',
  await bench(() => run(globTool, { pattern: '**/*.js', sort: 'path' })),
  await bench(rgDirect(['--files', '-g', '*.js'])),
  "rg --files -g '*.js'",
);
row(
  'glob **/*.js, sort backend (mtime)',
  await bench(() => run(globTool, { pattern: '**/*.js' })),
  await bench(rgDirect(['--files', '-g', '*.js', '--sortr', 'modified'])),
  "rg --files -g '*.js' --sortr modified",
);
row(
  'glob **/*, sort path (every file)',
  await bench(() => run(globTool, { pattern: '**/*', sort: 'path' })),
  await bench(rgDirect(['--files'])),
  'rg --files',
);

// Batched vs single reads: 32 real files of the tree.
const list = await run(globTool, { pattern: '*.js', path: 'copy-0', sort: 'path', limit: 1000 });
const picks = (list.metadata as { paths: string[] }).paths.filter((_, i) => i % 7 === 0).slice(0, 32);
const bytes = picks.reduce((n, p) => n + readFileSync(join(tree, p)).length, 0);
const batched = await bench(() =>
  run(readTool, { files: picks.map((path) => ({ path, limit: 100 })), max_output_bytes: 98_304 }),
);
const singles = await bench(async () => {
  for (const path of picks) await run(readTool, { file_path: path, limit: 100 });
});
const parallel = await bench(() => Promise.all(picks.map((path) => run(readTool, { file_path: path, limit: 100 }))));
console.log(`\nread: 32 files (${fmt(bytes / 1024, 0)} KiB on disk, 100 lines each)`);
console.log(`  one batched call (files: 32, max_output_bytes 98304): ${fmt(batched, 2)} ms`);
console.log(
  `  32 single calls, one after another:                  ${fmt(singles, 2)} ms (${fmt(singles / batched, 1)}x the batch)`,
);
console.log(`  32 single calls, all at once:                        ${fmt(parallel, 2)} ms`);
console.log(`\npeak RSS ${fmt(peakRssMiB(), 0)} MiB`);
