// Path deny rules written in one Unicode form hold for a file named in the other: the person types
// `Read(clé/**)` (composed, NFC) while the folder on disk is `clé` decomposed (NFD, as macOS
// writes names and archives keep them). A model-side call through the kernel on a real
// LocalWorkspace can neither read, find, list, grep nor write the file under either spelling.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const COMPOSED = 'cl\u00e9';
const DECOMPOSED = 'cle\u0301';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function invokerOn(dir: string, deny: readonly string[]) {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.registerPack(workspaceToolPack);
  const invoker = new ToolInvoker({ registry, workspace, policy: { defaultDecision: 'allow', deny: [...deny] } });
  let n = 0;
  return (name: string, args: Record<string, unknown>): Promise<ToolInvocationResult> =>
    invoker.invoke({ id: `u${++n}`, name, args }, createTestInvocation().context);
}

describe('path deny rules and Unicode normal forms', () => {
  for (const [ruleForm, diskForm, label] of [
    [COMPOSED, DECOMPOSED, 'rule composed, file decomposed'],
    [DECOMPOSED, COMPOSED, 'rule decomposed, file composed'],
  ] as const) {
    it(`PERM-02: ${label}: read, grep, glob, ls and write never reach the file`, async () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-deny-nfc-')));
      made.push(dir);
      mkdirSync(join(dir, diskForm));
      writeFileSync(join(dir, diskForm, 'x.txt'), 'UNICODE-SECRET\n');
      writeFileSync(join(dir, 'open.txt'), 'visible\n');
      const call = invokerOn(dir, [`Read(${ruleForm}/**)`, `Write(${ruleForm}/**)`]);
      const read = await call('read', { file_path: `${diskForm}/x.txt` });
      expect(read.ok, read.output).toBe(false);
      expect(read.metadata.error_code).toBe('PERMISSION_DENIED');
      for (const [name, args] of [
        ['grep', { pattern: 'UNICODE-SECRET' }],
        ['glob', { pattern: '**/*.txt' }],
        ['ls', { path: diskForm }],
      ] as const) {
        const r = await call(name, args);
        expect(r.output, name).not.toContain('UNICODE-SECRET');
        expect(r.output, name).not.toContain('x.txt');
      }
      expect((await call('glob', { pattern: '**/*.txt' })).output).toContain('open.txt');
      const write = await call('write', { file_path: `${diskForm}/x.txt`, content: 'overwritten' });
      expect(write.ok, write.output).toBe(false);
      expect(readFileSync(join(dir, diskForm, 'x.txt'), 'utf8')).toBe('UNICODE-SECRET\n');
    });
  }
});
