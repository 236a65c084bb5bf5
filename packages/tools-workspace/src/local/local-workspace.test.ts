import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalWorkspace } from './local-workspace.js';
import { tempDir, writeTree } from '../test-support/harness.js';

describe('LocalWorkspace', () => {
  it('checks its options at construction, naming the option', () => {
    const tmp = tempDir();
    try {
      writeTree(tmp.dir, { 'file.txt': 'x' });
      expect(() => new LocalWorkspace({ root: join(tmp.dir, 'missing') })).toThrow(
        expect.objectContaining({ code: 'WORKSPACE_CONFIGURATION', field: 'root' }),
      );
      expect(() => new LocalWorkspace({ root: join(tmp.dir, 'file.txt') })).toThrow(
        expect.objectContaining({ field: 'root' }),
      );
      expect(() => new LocalWorkspace({ root: tmp.dir, searchEngine: 'grep' as never })).toThrow(
        expect.objectContaining({ field: 'searchEngine' }),
      );
      expect(() => new LocalWorkspace({ root: tmp.dir, without: ['fs.read' as never] })).toThrow(
        expect.objectContaining({ field: 'without' }),
      );
      const ws = new LocalWorkspace({ root: tmp.dir, without: ['git'] });
      expect([...ws.capabilities]).toEqual(['fs.read', 'fs.write', 'fs.list', 'search', 'exec']);
      expect(ws.git).toBeUndefined();
    } finally {
      tmp.cleanup();
    }
  });

  it('writes atomically, keeps file modes, removes files and empty directories', async () => {
    const tmp = tempDir();
    try {
      const ws = new LocalWorkspace({ root: tmp.dir });
      await ws.fs.writeFile('d/x.sh', '#!/bin/sh\n');
      const { chmodSync, statSync, readdirSync } = await import('node:fs');
      chmodSync(join(tmp.dir, 'd/x.sh'), 0o755);
      await ws.fs.writeFile('d/x.sh', '#!/bin/sh\necho\n');
      expect(statSync(join(tmp.dir, 'd/x.sh')).mode & 0o777).toBe(0o755);
      expect(readdirSync(join(tmp.dir, 'd'))).toEqual(['x.sh']);
      await expect(ws.fs.remove('d')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_EMPTY' });
      await ws.fs.remove('d/x.sh');
      await ws.fs.remove('d');
      expect(await ws.fs.list('')).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });
});
