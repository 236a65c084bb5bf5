import { mkdtempSync, writeFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-probe-')));
writeFileSync(join(dir, 'small.ts'), Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // a small source line`).join('\n') + '\n');
const ws = new LocalWorkspace({ root: dir });
const agent = await Agent.create({ model: new ScriptedLlmClient([]), tools: [workspaceToolPack], workspace: ws, permissions: { defaultDecision: 'allow' }, persistence: 'memory' });
const s = await agent.session(dir);
const fns: Record<string, () => Promise<unknown>> = {
  peer: () => readFile(join(dir, 'small.ts')),
  wsfs: () => ws.fs.readFile('small.ts'),
  tool: () => s.tool('read', { file_path: 'small.ts' }),
};
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
const res: Record<string, number[]> = { peer: [], wsfs: [], tool: [] };
for (let r = 0; r < +(process.env.N ?? 3000); r++) for (const k of (process.env.ONLY ? [process.env.ONLY] : Object.keys(fns))) { const t = performance.now(); await fns[k]!(); if (r > 300) res[k]!.push(performance.now() - t); }
for (const k of Object.keys(res)) console.log(k, (med(res[k]!)! * 1000).toFixed(1), 'µs');
{
  const orig = ws.fs.readFile.bind(ws.fs);
  const inner: number[] = [];
  (ws.fs as { readFile: typeof orig }).readFile = async (p, o) => { const t = performance.now(); try { return await orig(p, o); } finally { inner.push(performance.now() - t); } };
  const outer: number[] = [];
  for (let i = 0; i < 3000; i++) { const t = performance.now(); await s.tool('read', { file_path: 'small.ts' }); outer.push(performance.now() - t); }
  console.log('outer', (med(outer)! * 1000).toFixed(1), 'inner fs.readFile', (med(inner)! * 1000).toFixed(1));
}
