import { describe, expect, it } from 'vitest';
import { MemoryWorkspace } from './memory-workspace.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('MemoryWorkspace', () => {
  it('reads, writes, lists, stats and removes with the workspace path rules', async () => {
    let now = 1000;
    const ws = await MemoryWorkspace.create({ root: '/repo', now: () => now, files: { 'a/b.txt': 'hi' } });
    expect(text(await ws.fs.readFile('a/b.txt'))).toBe('hi');
    expect(text(await ws.fs.readFile('/repo/a/./b.txt'))).toBe('hi');
    expect(await ws.fs.list('')).toEqual([{ name: 'a', kind: 'directory' }]);
    expect(await ws.fs.stat('a/b.txt')).toMatchObject({ kind: 'file', size: 2 });
    now = 2000;
    await ws.fs.writeFile('a/c.txt', new Uint8Array([104]));
    expect((await ws.fs.stat('a/c.txt'))!.mtimeMs).toBeGreaterThanOrEqual(2000);
    await expect(ws.fs.remove('a')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_EMPTY' });
    await ws.fs.remove('a/b.txt');
    await ws.fs.remove('a/c.txt');
    await ws.fs.remove('a');
    expect(await ws.fs.stat('a')).toBeUndefined();
    await expect(ws.fs.readFile('a/b.txt')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await ws.fs.writeFile('f', 'x');
    await expect(ws.fs.writeFile('f/g', 'x')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_DIRECTORY' });
    await expect(ws.fs.readFile('/elsewhere/x')).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
      problem: 'absolute_outside',
    });
  });

  it('refuses a bad root and honours cancellation', async () => {
    expect(() => new MemoryWorkspace({ root: 'relative' })).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_CONFIGURATION', field: 'root' }),
    );
    // A misspelt `files` would otherwise give an empty workspace.
    await expect(MemoryWorkspace.create({ file: { 'a.ts': 'x' } } as never)).rejects.toMatchObject({
      code: 'WORKSPACE_CONFIGURATION',
      field: 'file',
      message:
        "workspace option file: is not an option of MemoryWorkspace; allowed: root, files, now; did you mean 'files'?",
    });
    expect(() => new MemoryWorkspace('/ws' as never)).toThrow(/takes an options object, not a string; pass \{ files:/);
    const ws = new MemoryWorkspace();
    const c = new AbortController();
    c.abort();
    await expect(ws.fs.readFile('x', { signal: c.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
