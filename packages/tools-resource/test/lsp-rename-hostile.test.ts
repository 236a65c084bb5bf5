// lsp_rename against files a workspace may hold and names a model may send, with the real
// typescript-language-server: a byte-order mark, CRLF line ends, bytes that are not UTF-8, a new
// name that is not an identifier, and a write rule holding back one of the renamed files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LSP_RESOURCE, lspToolPack } from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';
import { type LspHarness, lspHarness } from './lsp-support.js';

let h: LspHarness;
const put = (path: string, data: string | Buffer) => {
  mkdirSync(dirname(join(h.dir, path)), { recursive: true });
  writeFileSync(join(h.dir, path), data);
};
const bytes = (path: string) => readFileSync(join(h.dir, path));
const code = (r: { metadata?: Record<string, unknown> }) => (r.metadata?.error as { code?: string } | undefined)?.code;
const A = 'export function oldName(): number {\n  return 1;\n}\n';
const LATIN = Buffer.concat([
  Buffer.from('// caf'),
  Buffer.from([0xe9]),
  Buffer.from('\nimport { oldName } from "./a";\nexport const u = oldName();\n'),
]);

beforeAll(() => {
  h = lspHarness(undefined);
  put(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }),
  );
});
afterAll(async () => {
  await h.close();
});
/**
 * Each test starts with these files on disk and a server restarted on them (`latin` replaces the
 * plain src/latin.ts): one restart per test, whatever the test before it changed.
 */
async function fresh(latin: string | Buffer = 'export const u = 0;\n'): Promise<void> {
  put('src/a.ts', A);
  put('src/bom.ts', '\uFEFFimport { oldName } from "./a";\nexport const v = oldName();\n');
  put('src/crlf.ts', 'import { oldName } from "./a";\r\nexport const w = oldName();\r\n');
  put('src/latin.ts', latin);
  await h.ask({ operation: 'reload' });
}

describe('lsp_rename on files of every encoding a workspace holds', () => {
  it('RENAME-03: a file with a byte-order mark is renamed at the right place and keeps its mark', async () => {
    await fresh();
    const r = await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name: 'newName' });
    expect(r.exitCode).toBe(0);
    expect(bytes('src/bom.ts').toString('utf8')).toBe(
      '\uFEFFimport { newName } from "./a";\nexport const v = newName();\n',
    );
    expect(bytes('src/crlf.ts').toString('utf8')).toBe(
      'import { newName } from "./a";\r\nexport const w = newName();\r\n',
    );
    expect(r.output).not.toContain('New diagnostics');
  }, 90_000);

  it('a rename that would edit a file that is not UTF-8 writes nothing and names the file', async () => {
    await fresh(LATIN);
    const r = await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name: 'newName' });
    expect(code(r)).toBe('LSP_PATH');
    expect(r.output).toContain('src/latin.ts');
    expect(r.output).toContain('not UTF-8');
    expect(bytes('src/latin.ts').equals(LATIN)).toBe(true);
    expect(bytes('src/a.ts').toString('utf8')).toBe(A);
  }, 90_000);

  it('RENAME-02: a new_name that is not an identifier is refused before the server is asked', async () => {
    await fresh();
    for (const new_name of ['not valid', 'a.b', '1abc', 'x-y', 'f()'] as const) {
      const r = await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name });
      expect(code(r)).toBe('LSP_ARGS');
      expect(r.output).toContain('is not an identifier; allowed:');
    }
    for (const new_name of ['class', 'return', 'await'] as const) {
      const r = await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name });
      expect(code(r)).toBe('LSP_ARGS');
      expect(r.output).toContain(`"${new_name}" is a reserved word in JavaScript/TypeScript`);
    }
    expect(bytes('src/a.ts').toString('utf8')).toBe(A);
    for (const new_name of ['_private', '$el', 'café', 'newName2'])
      expect(code(await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name }))).not.toBe('LSP_ARGS');
  }, 90_000);

  it('PERM-02: a rename touching a file an Edit rule holds back writes none of the files', async () => {
    await fresh();
    const registry = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list', 'search', LSP_RESOURCE] });
    registry.registerPack(lspToolPack);
    const workspace = diskWorkspace(h.dir);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'allow', deny: ['Edit(src/crlf.ts)'] },
      resources: { acquire: async () => h.lsp },
    });
    const r: ToolInvocationResult = await invoker.invoke(
      { id: 'r1', name: 'lsp_rename', args: { file: 'src/a.ts', line: 1, symbol: 'oldName', new_name: 'newName' } },
      createTestInvocation({}, { runId: 'run-deny' }).context,
    );
    expect(r.output).toContain('Permission denied');
    expect(r.output).toContain('Edit(src/crlf.ts)');
    expect(workspace.writes).toEqual([]);
    expect(bytes('src/a.ts').toString('utf8')).toBe(A);
  }, 90_000);

  it('a file another program changes while the rename is being written keeps that change; the files already written are restored', async () => {
    await fresh();
    const theirs = 'import { oldName } from "./a";\nexport const w = oldName() + 1;\n';
    const fs = h.workspace.fs!;
    const write = fs.writeFile.bind(fs);
    let first: string | undefined;
    // Another program writes src/crlf.ts right after the rename wrote its first file.
    fs.writeFile = async (path, data, options) => {
      await write(path, data, options);
      if (first === undefined && path !== 'src/crlf.ts') {
        first = path;
        put('src/crlf.ts', theirs);
      }
    };
    const before = bytes('src/a.ts').toString('utf8');
    try {
      const r = await h.rename({ file: 'src/a.ts', line: 1, symbol: 'oldName', new_name: 'newName' });
      expect(code(r)).toBe('LSP_STALE');
      expect(r.output).toContain('src/crlf.ts changed while the rename was being written; the other change is kept');
    } finally {
      fs.writeFile = write;
    }
    expect(first).toBeDefined();
    expect(bytes('src/crlf.ts').toString('utf8')).toBe(theirs);
    expect(bytes('src/a.ts').toString('utf8')).toBe(before);
  }, 90_000);
});
