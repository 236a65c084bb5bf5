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

  it('a misspelt option, a path string or a string `without` is refused by name, never dropped', () => {
    const tmp = tempDir();
    try {
      const refused = (options: unknown, field: string, message: RegExp) =>
        expect(() => new LocalWorkspace(options as never)).toThrow(
          expect.objectContaining({ code: 'WORKSPACE_CONFIGURATION', field, message: expect.stringMatching(message) }),
        );
      // A misspelt restriction would leave the shell it was meant to take away.
      refused(
        { root: tmp.dir, witout: ['exec'] },
        'witout',
        /^workspace option witout: is not an option of new LocalWorkspace\(options\); allowed: root, searchEngine, without, passEnv, maxProcesses, isolateCommands; did you mean 'without'\?$/,
      );
      refused({ rot: tmp.dir }, 'rot', /did you mean 'root'\?/);
      refused({ root: tmp.dir, isolateCommand: true }, 'isolateCommand', /did you mean 'isolateCommands'\?/);
      refused(tmp.dir, 'options', /takes an options object, not a string; pass \{ root: '\/path\/to\/project' \}/);
      refused(undefined, 'options', /takes an options object such as \{ root:/);
      refused(
        { root: tmp.dir, without: 'exec' },
        'without',
        /must be an array of service names \(search, exec, git\), e\.g\. \['exec'\], got "exec"/,
      );
      expect(new LocalWorkspace({ root: tmp.dir, without: ['exec'], passEnv: undefined }).exec).toBeUndefined();
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
