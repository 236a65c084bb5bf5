import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/core';
import { LocalWorkspace } from '../local/local-workspace.js';
import { MemoryWorkspace } from '../memory/memory-workspace.js';
import { readTool } from '../tools/read/read-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { lsTool } from '../tools/ls/ls-tool.js';
import { call, tempDir } from '../test-support/harness.js';
import type { WorkspacePathError } from '../errors.js';

// A workspace inside a sandbox folder; "outside" holds a secret next to it.
const sandbox = tempDir('a3s-escape-');
const root = join(sandbox.dir, 'ws');
const outside = join(sandbox.dir, 'outside');
let ws: LocalWorkspace;

beforeAll(() => {
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, '.a3s'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  writeFileSync(join(root, 'src', 'ok.txt'), 'fine\n');
  writeFileSync(join(root, '.a3s', 'state.json'), '{}\n');
  symlinkSync(outside, join(root, 'link-out'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'));
  symlinkSync('../outside/secret.txt', join(root, 'src', 'relative-link'));
  symlinkSync('/etc/passwd', join(root, 'passwd-link'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'dangling-out'));
  symlinkSync(join(root, '.a3s'), join(root, 'a3s-alias'));
  symlinkSync(join(root, 'src'), join(root, 'src-alias'));
  ws = new LocalWorkspace({ root });
});
afterAll(() => sandbox.cleanup());

const READ_ESCAPES = [
  '../outside/secret.txt',
  '..',
  '../',
  '../../etc/passwd',
  'src/../../outside/secret.txt',
  'src/../../../etc/passwd',
  './../outside/secret.txt',
  'src/./../../outside/secret.txt',
  '/etc/passwd',
  '/etc',
  '/',
  '/tmp',
  `${outside}/secret.txt`,
  `${root}/../outside/secret.txt`,
  `${root}-sibling/file`,
  '~/.ssh/id_rsa',
  '~',
  'src/ok.txt\0.png',
  '\0',
  'link-out/secret.txt',
  'link-out',
  'secret-link',
  'src/relative-link',
  'passwd-link',
  'src-alias/../../outside/secret.txt',
  'dangling-out',
  '//etc/passwd',
  '/../outside/secret.txt',
  'src/../..//outside/secret.txt',
  '../ws/../outside/secret.txt',
];

const WRITE_ONLY_ESCAPES = [
  '.a3s/state.json',
  '.a3s/new.txt',
  '.A3S/x',
  './.a3s/x',
  'src/../.a3s/x',
  'a3s-alias/x.txt',
  'dangling-out',
  'link-out/new.txt',
  '.a3s',
  '.a3s/',
];

describe('path escapes (local workspace)', () => {
  it(`BND: refuses ${READ_ESCAPES.length} hostile paths on read with WORKSPACE_PATH`, async () => {
    expect(READ_ESCAPES.length).toBeGreaterThanOrEqual(30);
    for (const path of READ_ESCAPES) {
      const error = await call(readTool, ws, { file_path: path }).then(
        (r) => new Error(`read ${JSON.stringify(path)} was not refused: ${r.output.slice(0, 80)}`),
        (e: unknown) => e,
      );
      expect(A3sError.hasCode(error, 'WORKSPACE_PATH'), `read ${JSON.stringify(path)}: ${String(error)}`).toBe(true);
      expect(['file_path', 'path']).toContain((error as WorkspacePathError).field);
    }
  });

  it('BND: refuses every hostile path, plus .a3s internals, on write; nothing is created outside', async () => {
    for (const path of [...READ_ESCAPES, ...WRITE_ONLY_ESCAPES]) {
      const error = await call(writeTool, ws, { file_path: path, content: 'pwned' }).then(
        (r) => new Error(`write ${JSON.stringify(path)} was not refused: ${r.output}`),
        (e: unknown) => e,
      );
      expect(A3sError.hasCode(error, 'WORKSPACE_PATH'), `write ${JSON.stringify(path)}: ${String(error)}`).toBe(true);
    }
    expect(existsSync(join(outside, 'missing.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(root, '.a3s', 'new.txt'))).toBe(false);
  });

  it('BND: edit and ls refuse escapes too, while paths that stay inside work', async () => {
    await expect(
      call(editTool, ws, { file_path: 'secret-link', old_string: 'secret', new_string: 'x' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    await expect(call(lsTool, ws, { path: 'link-out' })).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    expect((await call(readTool, ws, { file_path: 'src/../src/ok.txt' })).output).toContain('fine');
    expect((await call(readTool, ws, { file_path: `${root}/src/ok.txt` })).output).toContain('fine');
    expect((await call(readTool, ws, { file_path: 'src-alias/ok.txt' })).output).toContain('fine');
    expect((await call(readTool, ws, { file_path: '.a3s/state.json' })).exitCode).toBe(0);
  });
});

describe('paths longer than the file system takes', () => {
  it('BND: a name over 255 bytes or a path over 3072 bytes is refused as too_long, quoted cut, never echoed whole', async () => {
    const long = [
      { path: 'x'.repeat(5000), says: /has a name of 5000 bytes; a file or folder name may be at most 255 bytes/ },
      { path: `${'é'.repeat(130)}.txt`, says: /has a name of 264 bytes/ },
      { path: `${'a/'.repeat(1600)}f`, says: /is 3201 bytes long; a workspace path may be at most 3072 bytes/ },
    ];
    for (const { path, says } of long) {
      for (const [tool, args] of [
        [readTool, { file_path: path }],
        [writeTool, { file_path: path, content: 'x' }],
      ] as const) {
        const error = await call(tool, ws, args).then(
          (r) => new Error(`${JSON.stringify(path.slice(0, 20))} was not refused: ${r.output.slice(0, 80)}`),
          (e: unknown) => e,
        );
        expect(error).toMatchObject({ code: 'WORKSPACE_PATH', problem: 'too_long', field: 'file_path' });
        expect((error as Error).message).toMatch(says);
        expect((error as Error).message.length).toBeLessThan(500);
      }
    }
    const edge = await call(writeTool, ws, { file_path: `src/${'n'.repeat(255)}`, content: 'ok' });
    expect(edge.output).toMatch(/^created/);
  });
});

describe('path escapes (memory workspace)', () => {
  it('BND: refuses the lexical escapes and .a3s and .git writes', async () => {
    const mem = await MemoryWorkspace.create({ root: '/ws', files: { 'a.txt': 'a\n' } });
    const lexical = READ_ESCAPES.filter((p) => !/link|alias|dangling/.test(p));
    expect(lexical.length).toBeGreaterThan(20);
    for (const path of lexical) {
      await expect(call(readTool, mem, { file_path: path }), path).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    }
    for (const path of [
      '.a3s/x',
      '.A3S/y',
      'sub/../.a3s/z',
      '.git/config',
      '.git/hooks/pre-commit',
      'sub/.GIT/config',
      'a/b/.git',
    ]) {
      const error = await call(writeTool, mem, { file_path: path, content: 'x' }).then(
        () => new Error(`${path} was not refused`),
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'WORKSPACE_PATH', problem: 'protected' });
      // What is allowed instead is said truly: the path was inside the root, the folder is the problem.
      expect((error as Error).message).toContain('allowed: a file path below the workspace root, outside every .a3s/');
      expect((error as Error).message).not.toContain('allowed: a path inside the workspace root');
    }
    expect((await call(readTool, mem, { file_path: '/ws/a.txt' })).output).toContain('a');
  });
});
