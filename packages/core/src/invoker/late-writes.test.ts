// What a process left running writes, searched for at a later call while a sweep is already
// running: that sweep listed the workspace before the write, so the call's search must be a new
// one, not the running one joined (under load a kernel thread's write between two cells was then
// named only by a later call). And what a periodic sweep is removing as a call ends is named by
// that call, not left to the next one.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { endLateWrites, takeLateWrites, watchLateWrites } from './late-writes.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-late-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('late writes', () => {
  it('PERM-02: a search asked for while a sweep runs sees what was written after that sweep began', async () => {
    // Enough folders that one sweep (the rule reaches into every folder) takes a while.
    for (let i = 0; i < 60; i++)
      for (let j = 0; j < 60; j++) mkdirSync(join(root, 'big', `d${i}`, `e${j}`), { recursive: true });
    const policy = new PermissionPolicy({ deny: ['Write(**/workflows/**)'] });
    const exec = {};
    const started = Date.now() - 50;
    watchLateWrites(exec, {
      root,
      policy,
      ask: false,
      toolName: 'eval',
      hide: { unreadable: [], unwritable: [] },
      started,
      pids: [],
    });
    const first = takeLateWrites(exec);
    // The first sweep has listed the workspace's top by now, and is still walking `big`.
    await new Promise((r) => setTimeout(r, 20));
    mkdirSync(join(root, 'a', 'workflows'), { recursive: true });
    writeFileSync(join(root, 'a', 'workflows', 'k.yml'), 'x');
    const second = await takeLateWrites(exec);
    // Under load the first sweep may not have listed the top yet: then it names the folder itself.
    const named = [...((await first)?.removed ?? []), ...(second?.removed ?? [])];
    expect(named).toEqual(['a/workflows']);
    expect(existsSync(join(root, 'a', 'workflows'))).toBe(false);
    await endLateWrites(exec);
  });

  it('PERM-02: what a periodic sweep still running removes is named by the call that takes the removals then', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const policy = new PermissionPolicy({ deny: ['Write(**/workflows/**)'] });
      const exec = {};
      watchLateWrites(exec, {
        root,
        policy,
        ask: false,
        toolName: 'bash',
        hide: { unreadable: [], unwritable: [] },
        started: Date.now() - 50,
        pids: [process.pid],
      });
      mkdirSync(join(root, 'b', 'workflows'), { recursive: true });
      // The periodic sweep starts, and the call ends while it is still walking `big`.
      vi.advanceTimersByTime(1000);
      expect(await takeLateWrites(exec, false)).toEqual({ removed: ['b/workflows'] });
      await endLateWrites(exec);
    } finally {
      vi.useRealTimers();
    }
  });
});
