// Benchmarks of the ast pack (issue 18): `ast_grep` over this repository's TypeScript sources
// (every `packages/*/src/**/*.ts`) against @ast-grep/napi (native) on the same files in the same
// run, for several patterns; goal <= 3x napi. The grammar load (web-tree-sitter init + the
// TypeScript grammar) is measured separately, in a fresh child process.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { AST_RESOURCE, astGrepTool, openAstResource } from '@a3s-code/tools-resource/ast';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { Lang, parse } from '@ast-grep/napi';
import { fmt, median, peakRssMiB, time } from './util.js';

const RUNS = 5;
const repo = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}
const files = readdirSync(join(repo, 'packages')).flatMap((p) => {
  try {
    return sources(join(repo, 'packages', p, 'src'));
  } catch {
    return [];
  }
});
const bytes = files.reduce((n, f) => n + readFileSync(f).length, 0);
console.log(`corpus: ${files.length} files, ${fmt(bytes / 1024 / 1024, 2)} MiB of TypeScript (packages/*/src)`);

// Grammar load cost, in a fresh process: import + Parser.init + the TypeScript grammar.
const probe = `
const t0 = performance.now();
const { openAstResource, languageById } = await import('@a3s-code/tools-resource/ast');
const t1 = performance.now();
const ast = await openAstResource();
const t2 = performance.now();
await ast.compile(languageById('typescript'), 'f($X)');
const t3 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, initMs: t2 - t1, grammarMs: t3 - t2 }));`;
const loads = Array.from({ length: 3 }, () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: repo, encoding: 'utf8' });
  return JSON.parse(r.stdout) as { importMs: number; initMs: number; grammarMs: number };
});
console.log(
  `cold start (median of 3 fresh processes): import ${fmt(median(loads.map((l) => l.importMs)))} ms, web-tree-sitter init ${fmt(median(loads.map((l) => l.initMs)))} ms, TypeScript grammar load + first pattern ${fmt(median(loads.map((l) => l.grammarMs)))} ms`,
);

const ws = new LocalWorkspace({ root: repo });
const ast = await openAstResource();
const ctx = createToolContext({ workspace: ws, resources: { [AST_RESOURCE]: ast } });
const rel = files.map((f) => relative(repo, f));
const grep = (pattern: string, path: string): Promise<ToolResult> =>
  (astGrepTool as unknown as Tool<Record<string, unknown>>).execute(
    { pattern, path, language: 'typescript', max_results: 500 },
    ctx,
  );

/** ast_grep over each package's src folder (the tool lists the files through the workspace). */
async function ours(pattern: string): Promise<number> {
  let total = 0;
  for (const dir of [...new Set(rel.map((f) => f.split('/').slice(0, 3).join('/')))]) {
    const r = await grep(pattern, dir);
    if (r.exitCode !== 0) throw new Error(r.output);
    total += r.metadata?.total as number;
  }
  return total;
}

/** napi on the same files: read, parse, findAll. */
function theirs(pattern: string): number {
  let total = 0;
  for (const f of files) total += parse(Lang.TypeScript, readFileSync(f, 'utf8')).root().findAll(pattern).length;
  return total;
}

const PATTERNS = ['await $X', 'new $C($$$A)', '$A.push($B)', 'if ($C) return $V;', 'JSON.stringify($$$A)'];
console.log('\n| pattern | matches (ours / napi) | ast_grep | napi parse+findAll | ratio |');
console.log('|---|---|---|---|---|');
const ratios: number[] = [];
for (const pattern of PATTERNS) {
  let a = 0;
  let b = 0;
  await ours(pattern); // warm: grammar loaded, files in the page cache
  theirs(pattern);
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    ta.push(await time(async () => (a = await ours(pattern))));
    tb.push(await time(() => (b = theirs(pattern))));
  }
  const ratio = median(ta) / median(tb);
  ratios.push(ratio);
  console.log(
    `| \`${pattern}\` | ${a} / ${b} | ${fmt(median(ta), 0)} ms | ${fmt(median(tb), 0)} ms | ${fmt(ratio, 2)}× |`,
  );
}
console.log(`\nmedian ratio ${fmt(median(ratios), 2)}× (goal <= 3×); peak RSS ${fmt(peakRssMiB(), 0)} MiB`);
await ast.close();
