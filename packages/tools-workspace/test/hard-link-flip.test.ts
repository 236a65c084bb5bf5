// A process the model started makes `x.txt` another name (a hard link) of `.env` and removes it
// again, in a tight loop, while the model reads `x.txt`. A read that opened `.env`'s file must be
// refused under `deny: Read(.env)` even when the name is gone before it is judged (the file then
// has one name left, `.env`): it is judged by the inode the backend has open. Real files, a real
// LocalWorkspace, the real kernel, and a real second process racing it.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-link-flip-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLIP = `const fs = require('node:fs'); process.chdir(process.argv[1]); const end = Date.now() + Number(process.argv[2]);
while (Date.now() < end) { try { fs.linkSync('.env', 'x.txt'); } catch {} try { fs.unlinkSync('x.txt'); } catch {} }`;

describe('a hard link made and removed while it is read', () => {
  it('PERM-02: no read of the flipping name ever shows the denied file', async () => {
    writeFileSync(join(dir, '.env'), 'SECRET=hunter2\n');
    const workspace = new LocalWorkspace({ root: dir });
    const registry = new ToolRegistry({ capabilities: workspace.capabilities });
    registry.registerPack(workspaceToolPack);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'allow', deny: ['Read(.env)', 'Write(.env)'] },
    });
    let n = 0;
    const read = (): Promise<ToolInvocationResult> =>
      invoker.invoke({ id: `f${++n}`, name: 'read', args: { file_path: 'x.txt' } }, createTestInvocation({}).context);
    const flipper = spawn(process.execPath, ['-e', FLIP, dir, '4000'], { stdio: 'ignore' });
    try {
      let leaked = 0;
      let refused = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 2_500) {
        const r = await read();
        if (r.output.includes('hunter2')) leaked++;
        if (r.output.includes('Permission denied: Read(.env)')) refused++;
      }
      // The race was on: reads met the link; none of them showed the secret.
      expect(refused).toBeGreaterThan(0);
      expect(leaked).toBe(0);
    } finally {
      flipper.kill('SIGKILL');
    }
  }, 15_000);
});
