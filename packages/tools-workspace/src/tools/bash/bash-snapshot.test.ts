// The workspace listing around a command (for the files it changed) cannot outlast the call: a
// listing that never finishes is given up within the command's timeout, the command still runs,
// and the changes are reported unknown with a note. A stuck ripgrep is killed, not left behind.
// The time bounds leave a second of slack for a loaded machine: without the bound a call never ends.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceGlobRequest, WorkspaceSearch, WorkspaceServices } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { RipgrepSearch } from '../../local/rg-search.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { bashTool } from './bash-tool.js';

const tmp = tempDir('a3s-bash-snap-');
const root = join(tmp.dir, 'ws');
writeTree(root, { 'keep.txt': 'k\n' });
const local = new LocalWorkspace({ root });
afterAll(async () => {
  await local.close();
  tmp.cleanup();
});

/** A search (the published interface) whose listing never finishes and ignores its signal. */
const stuckSearch = (seen: AbortSignal[]): WorkspaceSearch => ({
  grep: () => {
    throw new Error('not used');
  },
  glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
    if (request.signal) seen.push(request.signal);
    return {
      async *[Symbol.asyncIterator]() {
        await new Promise<never>(() => undefined);
      },
    };
  },
});

/** The local workspace's file system and processes with another search. */
function withSearch(search: WorkspaceSearch): WorkspaceServices {
  return { root, capabilities: local.capabilities, fs: local.fs, exec: local.exec!, search };
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && alive(pid)) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

describe('bash: the workspace listing is bounded by the call', () => {
  it('a listing that never finishes: the command runs, the call ends within its timeout, changes unknown with a note', async () => {
    const seen: AbortSignal[] = [];
    const t0 = Date.now();
    const r = await call(bashTool, withSearch(stuckSearch(seen)), { command: 'echo hi', timeout: 2000 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(
      'hi\n[the files this call changed are unknown: listing the workspace took longer than 1000 ms and was stopped]',
    );
    expect(r.metadata).toMatchObject({ changed_files: null, changed_paths: null, timed_out: false });
    expect(r.metadata?.changed_files_unknown).toMatch(/took longer than 1000 ms/);
    expect(seen[0]?.aborted).toBe(true);
  });

  it('a command that runs past its deadline after a stuck listing still ends at the deadline', async () => {
    const t0 = Date.now();
    const r = await call(bashTool, withSearch(stuckSearch([])), { command: 'sleep 30', timeout: 1500 });
    expect(Date.now() - t0).toBeLessThan(3500);
    expect(r.exitCode).toBe(124);
    expect(r.metadata).toMatchObject({ timed_out: true, changed_files: null });
    expect(r.output).toContain('timed out after 1500 ms');
    expect(r.output).toContain('listing the workspace took longer than 1000 ms');
  });

  it('a cancelled call ends during a stuck listing', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user cancelled')), 200);
    const t0 = Date.now();
    await expect(
      call(bashTool, withSearch(stuckSearch([])), { command: 'echo never', timeout: 60_000 }, ac.signal),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a listing that works before the command and sticks after it is given up at its own bound', async () => {
    let calls = 0;
    const search: WorkspaceSearch = {
      grep: () => {
        throw new Error('not used');
      },
      glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
        calls += 1;
        return calls === 1 ? local.search!.glob(request) : stuckSearch([]).glob(request);
      },
    };
    const t0 = Date.now();
    const r = await call(bashTool, withSearch(search), { command: 'echo later > later.txt', timeout: 60_000 });
    expect(Date.now() - t0).toBeLessThan(9000);
    expect(r.metadata).toMatchObject({ changed_files: null, exit_code: 0 });
    expect(r.output).toContain('listing the workspace took longer than 5000 ms and was stopped');
  }, 15_000);

  it('a stuck ripgrep is killed when its listing is given up, and the call ends within its timeout', async () => {
    // Stands in for an rg whose threads deadlocked: it records its pid and never answers.
    const rg = join(tmp.dir, 'stuck-rg');
    const pids = join(tmp.dir, 'rg.pids');
    writeFileSync(rg, `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 600\n`);
    chmodSync(rg, 0o755);
    const t0 = Date.now();
    const r = await call(bashTool, withSearch(new RipgrepSearch(local.fs, rg)), { command: 'echo ok', timeout: 2000 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.output).toMatch(/^ok\n\[the files this call changed are unknown: listing the workspace took longer/);
    expect(existsSync(pids)).toBe(true);
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(started.length).toBe(1);
    expect(await waitDead(started[0]!)).toBe(true);
  });
});
