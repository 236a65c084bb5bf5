// Benchmarks of the lsp pack (issue 19) on a generated 200-file TypeScript project with the real
// typescript-language-server: cold server start, the first diagnostics-on-write (server start
// included) against `tsc --noEmit` on that one file's program, and warm write → diagnostics
// latency (median, p95) through the diagnostics-on-write middleware. Goals: first ≤ 1.5× tsc,
// warm ≤ 300 ms median.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import {
  LSP_RESOURCE,
  type LspSupervisor,
  diagnosticsOnWrite,
  lspTool,
  openLspResource,
  warmOnRead,
} from '@a3s-code/tools-resource/lsp';
import { fmt, median, pairedMedians } from './util.js';

const FILES = 200;
const WARM = 20;
const dir = mkdtempSync(join(tmpdir(), 'a3s-lsp-bench-'));
mkdirSync(join(dir, 'src'));
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', types: [] },
    include: ['src'],
  }),
);
const fileText = (i: number, extra = ''): string =>
  `${i > 0 ? `import { f${i - 1} } from './m${i - 1}.js';\n` : ''}/** Value ${i}. */\nexport function f${i}(x: number): number {\n  return ${i > 0 ? `f${i - 1}(x) + ` : ''}x * ${i};\n}\nexport interface T${i} { readonly a: number; readonly b: string }\n${extra}`;
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'src', `m${i}.ts`), fileText(i));

const target = `src/m${FILES / 2}.ts`;
const lsp = openLspResource();
const ctx = createToolContext({
  workspace: { root: dir, capabilities: new Set(['fs.read', 'fs.write']) },
  runId: 'bench',
  resources: { [LSP_RESOURCE]: lsp },
});
async function write(text: string): Promise<{ ms: number; result: ToolResult }> {
  const t0 = performance.now();
  // As the `write` tool: the middleware reads the file's old text first (the baseline of a file
  // the server has not opened), so the first write includes that round.
  const call = { tool: { name: 'write' } as Tool, args: { file_path: target, content: text }, ctx };
  const result = await diagnosticsOnWrite.wrap(call, async () => {
    writeFileSync(join(dir, target), text);
    return { output: 'ok', exitCode: 0, metadata: { changes: [{ path: target, action: 'modify' }] } };
  });
  return { ms: performance.now() - t0, result };
}

// tsc --noEmit on the program of that one file (it imports its 100 predecessors): a tsconfig
// with the same options listing only that file.
writeFileSync(
  join(dir, 'tsconfig.one.json'),
  JSON.stringify({ extends: './tsconfig.json', include: [], files: [target] }),
);
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const t0 = performance.now();
const checked = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(dir, 'tsconfig.one.json')], {
  encoding: 'utf8',
});
if (checked.status !== 0) throw new Error(`tsc failed: ${checked.stdout}${checked.stderr}`);
const tscMs = performance.now() - t0;

const first = await write(fileText(FILES / 2, 'export const bad: number = "x";\n'));
const sup = lsp.supervisor(dir) as LspSupervisor;
const startMs = sup.states()[0]?.startMs ?? Number.NaN;
if (!first.result.output.includes('2322'))
  throw new Error(`the first write reported no diagnostic: ${first.result.output}`);

const warm: number[] = [];
for (let i = 0; i < WARM; i++) {
  const r = await write(
    fileText(FILES / 2, `${'\n'.repeat(i % 5)}export const bad${i}: number = ${i % 2 === 0 ? '"x"' : '1'};\n`),
  );
  warm.push(r.ms);
}
warm.sort((a, b) => a - b);
const p95 = warm[Math.min(warm.length - 1, Math.ceil(warm.length * 0.95) - 1)]!;
// A warm hover on the target's function: the lsp tool against the bare request to the server.
// `export function f<N>(` is the target's third line.
const hoverLine = 3;
const symbol = `f${FILES / 2}`;
const { client } = await sup.clientFor(join(dir, target));
const position = { line: hoverLine - 1, character: 'export function '.length };
const uri = `file://${join(dir, target)}`;
const hover = await pairedMedians(
  40,
  async () => {
    const r = await lspTool.execute({ operation: 'hover', file: target, line: hoverLine, symbol }, ctx);
    if (!r.output.includes(symbol)) throw new Error(`hover: ${r.output}`);
  },
  () => client.request('textDocument/hover', { textDocument: { uri }, position }),
);
await lsp.close();

// The first write again on a fresh resource, now after a read of the file (warming on read) and
// a pause standing for the model's turn between the read and the write.
const THINK_MS = 2_000;
writeFileSync(join(dir, target), fileText(FILES / 2));
const lsp2 = openLspResource();
const ctx2 = createToolContext({
  workspace: { root: dir, capabilities: new Set(['fs.read', 'fs.write']) },
  runId: 'bench-2',
  resources: { [LSP_RESOURCE]: lsp2 },
});
const readCall = { tool: { name: 'read' } as Tool, args: { file_path: target }, ctx: ctx2 };
const tRead = performance.now();
await warmOnRead.wrap(readCall, async () => ({ output: 'the file', exitCode: 0 }));
const readMs = performance.now() - tRead;
await new Promise((r) => setTimeout(r, THINK_MS));
const t1 = performance.now();
const afterRead = await diagnosticsOnWrite.wrap(
  { tool: { name: 'write' } as Tool, args: { file_path: target, content: 'x' }, ctx: ctx2 },
  async () => {
    writeFileSync(join(dir, target), fileText(FILES / 2, 'export const bad: number = "x";\n'));
    return { output: 'ok', exitCode: 0, metadata: { changes: [{ path: target, action: 'modify' }] } };
  },
);
const warmFirstMs = performance.now() - t1;
if (!afterRead.output.includes('2322')) throw new Error(`the write after a read reported nothing: ${afterRead.output}`);
await lsp2.close();
rmSync(dir, { recursive: true, force: true });

console.log(`project: ${FILES} files; target ${target} imports ${FILES / 2} others`);
console.log(`server spawn + initialize: ${fmt(startMs, 0)} ms`);
console.log(`tsc --noEmit on the target's program: ${fmt(tscMs, 0)} ms`);
console.log(
  `first diagnostics-on-write (server start included): ${fmt(first.ms, 0)} ms = ${fmt(first.ms / tscMs, 2)}× tsc (goal ≤ 1.5×)`,
);
console.log(
  `first write ${THINK_MS / 1000} s after a read of the file (warming on read): ${fmt(warmFirstMs, 0)} ms against ${fmt(first.ms, 0)} ms without the read (the read itself: ${fmt(readMs, 1)} ms)`,
);
console.log(
  `warm write → diagnostics over ${WARM} writes: median ${fmt(median(warm), 0)} ms, p95 ${fmt(p95, 0)} ms (goal median ≤ 300 ms)`,
);
console.log(
  `warm hover, ${FILES}-file project: the lsp tool ${fmt(hover.ours, 2)} ms against the bare request ${fmt(hover.peer, 2)} ms (median of 40 pairs: ${fmt(hover.ratio, 2)}×)`,
);
