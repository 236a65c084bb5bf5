import { afterAll, describe, expect, it } from 'vitest';
import { call, tempDir } from '../test-support/harness.js';
import { runSymlinkRace } from '../test-support/symlink-race.js';
import { lsTool } from '../tools/ls/ls-tool.js';
import { readTool } from '../tools/read/read-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const sandbox = tempDir('a3s-race-');
afterAll(() => sandbox.cleanup());

describe('symlink races', () => {
  it('a folder swapped with a link to outside, mid-call, never leaks outside content to read/ls nor lets write create files outside', async () => {
    const { counts, swaps, swapperExit, createdOutside } = await runSymlinkRace(sandbox.dir, 3_000, 3, {
      read: readTool,
      write: writeTool,
      ls: lsTool,
      callerFor: (root) => {
        const ws = new LocalWorkspace({ root });
        return (tool, args) => call(tool, ws, args);
      },
    });
    expect(swapperExit).toBe(0);
    expect(swaps).toBeGreaterThan(100);
    expect(counts.reads).toBeGreaterThan(50);
    expect(counts.readsInside).toBeGreaterThan(0);
    expect(counts.outsideReads, JSON.stringify(counts)).toBe(0);
    expect(counts.outsideListings, JSON.stringify(counts)).toBe(0);
    expect(createdOutside, JSON.stringify(counts)).toEqual([]);
  }, 20_000);
});
