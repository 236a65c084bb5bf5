import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { digestOf } from '../shared/text.js';
import { editTool } from '../edit/edit-tool.js';
import { writeTool } from './write-tool.js';

const tmp = tempDir();
writeTree(tmp.dir, { 'exists.txt': 'old\n' });
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

describe('write', () => {
  it('BND-07: creates a file (parents too) and reports path, digests, sizes and a bounded diff', async () => {
    const r = await call(writeTool, ws, { file_path: 'deep/dir/new.txt', content: 'hello\nworld\n' });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(tmp.dir, 'deep/dir/new.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(r.metadata).toMatchObject({
      changed_paths: ['deep/dir/new.txt'],
      changes: [
        {
          path: 'deep/dir/new.txt',
          action: 'create',
          digest_before: null,
          digest_after: digestOf('hello\nworld\n'),
          size_after: 12,
          additions: 2,
          deletions: 0,
        },
      ],
    });
    expect(r.metadata!.diff).toBe('--- /dev/null\n+++ b/deep/dir/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n');
  });

  it('BND-07: a large overwrite carries a bounded preview and diff, never the whole file', async () => {
    const big = `${'y'.repeat(100)}\n`;
    const r = await call(writeTool, ws, { file_path: 'big.txt', content: big.repeat(20_000) });
    const meta = JSON.stringify(r.metadata);
    expect(meta.length).toBeLessThan(20_000);
    expect(r.metadata).toMatchObject({ diff_truncated: true, size: 2_020_000 });
  });

  it('overwrites, then appends; append with expected_offset is not written twice on retry', async () => {
    await call(writeTool, ws, { file_path: 'log.txt', content: 'a\n' });
    const first = await call(writeTool, ws, {
      file_path: 'log.txt',
      content: 'b\n',
      mode: 'append',
      expected_offset: 2,
    });
    expect(first.exitCode).toBe(0);
    const retry = await call(writeTool, ws, {
      file_path: 'log.txt',
      content: 'b\n',
      mode: 'append',
      expected_offset: 2,
    });
    expect(retry.metadata).toMatchObject({ already_applied: true });
    expect(readFileSync(join(tmp.dir, 'log.txt'), 'utf8')).toBe('a\nb\n');
    const wrong = await call(writeTool, ws, {
      file_path: 'log.txt',
      content: 'c\n',
      mode: 'append',
      expected_offset: 1,
    });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.output).toContain('does not match the file size 4');
    expect(readFileSync(join(tmp.dir, 'log.txt'), 'utf8')).toBe('a\nb\n');
    const plain = await call(writeTool, ws, { file_path: 'log.txt', content: 'c\n', mode: 'append' });
    expect(plain.metadata).toMatchObject({
      changes: [{ action: 'modify', digest_before: digestOf('a\nb\n'), digest_after: digestOf('a\nb\nc\n') }],
    });
    const fresh = await call(writeTool, ws, {
      file_path: 'chunks.txt',
      content: 'x',
      mode: 'append',
      expected_offset: 0,
    });
    expect(fresh.exitCode).toBe(0);
  });

  it('an overwrite keeps the UTF-8 byte-order mark read does not show; content giving one is written as it is', async () => {
    writeTree(tmp.dir, { 'bom.txt': '\ufeffhello\n' });
    const r = await call(writeTool, ws, { file_path: 'bom.txt', content: 'bye\n' });
    expect(r.exitCode).toBe(0);
    const bytes = readFileSync(join(tmp.dir, 'bom.txt'));
    expect(bytes.toString('hex')).toBe(Buffer.from('\ufeffbye\n').toString('hex'));
    expect(r.metadata).toMatchObject({
      size: 7,
      changes: [{ digest_after: digestOf(bytes), size_after: 7, additions: 1, deletions: 1 }],
    });
    await call(writeTool, ws, { file_path: 'bom.txt', content: '\ufeffagain\n' });
    expect(readFileSync(join(tmp.dir, 'bom.txt'), 'utf8')).toBe('\ufeffagain\n');
    writeTree(tmp.dir, { 'plain.txt': 'x\n' });
    await call(writeTool, ws, { file_path: 'plain.txt', content: 'y\n' });
    expect(readFileSync(join(tmp.dir, 'plain.txt'), 'utf8')).toBe('y\n');
  });

  it('refuses expected_offset without append, and a directory target', async () => {
    await expect(call(writeTool, ws, { file_path: 'x', content: 'y', expected_offset: 0 })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.expected_offset',
    });
    await expect(call(writeTool, ws, { file_path: 'x', content: 'y', mode: 'replace' })).rejects.toMatchObject({
      field: 'args.mode',
    });
    expect((await call(writeTool, ws, { file_path: 'deep', content: 'y' })).exitCode).toBe(1);
  });

  it('a path ending in "/" names a directory: write and edit refuse it and create nothing', async () => {
    const w = await call(writeTool, ws, { file_path: 'newdir/', content: 'x' });
    expect(w.exitCode).toBe(1);
    expect(w.metadata).toMatchObject({ error: { code: 'WORKSPACE_IS_DIRECTORY' } });
    expect(w.output).toContain('file_path ends in "/", which names a directory');
    expect(existsSync(join(tmp.dir, 'newdir'))).toBe(false);
    const e = await call(editTool, ws, { file_path: 'newer/', old_string: '', new_string: 'x' });
    expect(e.metadata).toMatchObject({ error: { code: 'WORKSPACE_IS_DIRECTORY' } });
    expect(existsSync(join(tmp.dir, 'newer'))).toBe(false);
  });

  it('declares its tier and capabilities', () => {
    expect(writeTool.tier).toBe('write');
    expect(writeTool.capabilitiesFor!({ file_path: 'a', content: '', mode: 'append' })).toMatchObject({
      idempotent: false,
    });
    expect(writeTool.inputSchema.additionalProperties).toBe(false);
  });
});
