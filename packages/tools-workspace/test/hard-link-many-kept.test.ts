// When the path rules keep more files than the kernel lists to find their other names (hard
// links), a file with several names cannot be told apart from another name of a kept file: it is
// refused, saying why, instead of read. Real files, a real LocalWorkspace and the real kernel.
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-many-kept-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hard links into a kept folder too large to list', () => {
  it('PERM-02: every other name of a kept file is refused, never read', async () => {
    mkdirSync(join(dir, 'secrets'));
    mkdirSync(join(dir, 'pub'));
    // 7,000 kept files, each with a second name under pub/: whichever 5,000 the kernel lists, some
    // of the 15 read below are not among them.
    for (let i = 0; i < 7_000; i++) {
      writeFileSync(join(dir, 'secrets', `k${i}.txt`), `KEY${i}=topsecret\n`);
      linkSync(join(dir, 'secrets', `k${i}.txt`), join(dir, 'pub', `k${i}.txt`));
    }
    const picked = Array.from({ length: 15 }, (_, i) => i * 466);
    writeFileSync(join(dir, 'pub', 'plain.txt'), 'nothing kept here\n');
    const workspace = new LocalWorkspace({ root: dir });
    const registry = new ToolRegistry({ capabilities: workspace.capabilities });
    registry.registerPack(workspaceToolPack);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'allow', deny: ['Read(secrets/**)'] },
    });
    let n = 0;
    const read = (file_path: string) =>
      invoker.invoke({ id: `m${++n}`, name: 'read', args: { file_path } }, createTestInvocation({}).context);
    for (const i of picked) {
      const r = await read(`pub/k${i}.txt`);
      expect(r.output, `pub/k${i}.txt`).not.toContain('topsecret');
      expect(r.ok).toBe(false);
    }
    const plain = await read('pub/plain.txt');
    expect(plain.ok, plain.output).toBe(true);
  }, 30_000);
});
