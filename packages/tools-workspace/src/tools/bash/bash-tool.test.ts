import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIVE_OUTPUT_LIMITS, resolveCapabilities, type Tool } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir, toolContext, writeTree } from '../../test-support/harness.js';
import { bashTool } from './bash-tool.js';

const tmp = tempDir();
writeTree(tmp.dir, { 'sub/keep.txt': 'k\n', 'edit-me.txt': 'v1\n', 'remove-me.txt': 'x\n' });
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(async () => {
  await ws.close();
  tmp.cleanup();
});

/** True while `pid` is a live (non-zombie) process. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

describe('bash', () => {
  it('runs a command, reports exit code, stdout and stderr separately', async () => {
    const r = await call(bashTool, ws, { command: 'echo out; echo err >&2; exit 3' });
    expect(r.exitCode).toBe(3);
    expect(r.output).toBe('out\n[stderr]\nerr\n[exit code 3]');
    expect(r.metadata).toMatchObject({
      exit_code: 3,
      timed_out: false,
      stdout: { total_bytes: 4, truncated: false },
      stderr: { total_bytes: 4 },
    });
    expect((await call(bashTool, ws, { command: 'pwd', cwd: 'sub' })).output.trim()).toBe(join(tmp.dir, 'sub'));
  });

  it('BND-06: on timeout the whole process group dies, a background grandchild sleep included', async () => {
    const t0 = Date.now();
    const r = await call(bashTool, ws, { command: 'sleep 30 & echo $! > grandchild.pid; sleep 30', timeout: 400 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.metadata).toMatchObject({ timed_out: true });
    expect(r.exitCode).toBe(124);
    expect(r.output).toContain('timed out after 400 ms');
    const pid = Number(readFileSync(join(tmp.dir, 'grandchild.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(1);
    expect(await waitDead(pid)).toBe(true);
  });

  it('BND-05: a child that closes its pipes but keeps running is still killed at the deadline', async () => {
    const t0 = Date.now();
    const r = await call(bashTool, ws, {
      command: 'exec >/dev/null 2>&1; echo $$ > closed.pid; sleep 30',
      timeout: 400,
    });
    expect(r.metadata).toMatchObject({ timed_out: true });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await waitDead(Number(readFileSync(join(tmp.dir, 'closed.pid'), 'utf8')))).toBe(true);
  });

  it('a grandchild holding the pipes after the shell exits is a background process: reported, then killed on close', async () => {
    const t1 = Date.now();
    const held = await call(bashTool, ws, {
      command: '(sleep 30; echo late) & echo $! > held.pid; echo early',
      timeout: 5000,
    });
    expect(Date.now() - t1).toBeLessThan(2000);
    const pid = Number(readFileSync(join(tmp.dir, 'held.pid'), 'utf8'));
    expect(held.metadata).toMatchObject({ timed_out: false, exit_code: 0 });
    expect(held.output).toMatch(/^early\n\[2 background processes still running: /);
    expect(
      (held.metadata as { background_processes: { pid: number }[] }).background_processes.map((p) => p.pid),
    ).toContain(pid);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
  });

  it('BND-06: cancellation through the signal kills the group and rejects with CANCELLED', async () => {
    const controller = new AbortController();
    const run = call(bashTool, ws, { command: 'sleep 30 & echo $! > cancel.pid; wait' }, controller.signal);
    for (let i = 0; i < 100 && !existsSync(join(tmp.dir, 'cancel.pid')); i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    controller.abort(new Error('user pressed stop'));
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await waitDead(Number(readFileSync(join(tmp.dir, 'cancel.pid'), 'utf8')))).toBe(true);
  });

  it('BND-04: each stream is capped, keeping head and tail with exact totals', async () => {
    const r = await call(bashTool, ws, { command: 'seq 1 100000; seq 1 50000 >&2', max_output_bytes: 1024 });
    const meta = r.metadata as {
      stdout: { total_bytes: number; truncated: boolean };
      stderr: { total_bytes: number; truncated: boolean };
    };
    expect(meta.stdout).toEqual({ total_bytes: 588895, truncated: true });
    expect(meta.stderr).toEqual({ total_bytes: 288894, truncated: true });
    expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.output).toContain('99999\n100000\n');
    expect(r.output).toContain('bytes omitted of 588895 total');
    expect(r.output).toContain('49999\n50000\n');
    expect(Buffer.byteLength(r.output)).toBeLessThan(2 * 1024 + 400);
  });

  it('BND-04: a 200 MB output flood is capped with bounded memory', async () => {
    (globalThis as { gc?: () => void }).gc?.();
    const rss0 = process.memoryUsage().rss;
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = Date.now();
    // 200 MB (191 MiB) kept whole would break a bound below: as strings the heap one, as buffers the RSS one.
    const r = await call(bashTool, ws, { command: "head -c 200000000 /dev/zero | tr '\\0' 'a'", timeout: 60_000 });
    const seconds = (Date.now() - t0) / 1000;
    const meta = r.metadata as { stdout: { total_bytes: number; truncated: boolean }; timed_out: boolean };
    expect(meta.stdout).toEqual({ total_bytes: 200_000_000, truncated: true });
    expect(meta.timed_out).toBe(false);
    expect(r.output.length).toBeLessThan(40_000);
    expect(process.memoryUsage().heapUsed - heap0).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(160 * 1024 * 1024);
    expect(seconds).toBeLessThan(15);
  }, 30_000);

  it('reports the files the command created, modified and deleted', async () => {
    const r = await call(bashTool, ws, { command: 'echo new > created.txt; echo v2 >> edit-me.txt; rm remove-me.txt' });
    expect(r.metadata).toMatchObject({
      changed_files: { created: ['created.txt'], modified: ['edit-me.txt'], deleted: ['remove-me.txt'] },
    });
  });

  it('a same-size edit whose modification time the command set back is still reported as modified', async () => {
    writeTree(tmp.dir, { 'same-size.txt': 'aaaa\n' });
    const r = await call(bashTool, ws, {
      command: 't=$(stat -c %y same-size.txt); sed -i \'s/aaaa/bbbb/\' same-size.txt; touch -d "$t" same-size.txt',
    });
    expect(readFileSync(join(tmp.dir, 'same-size.txt'), 'utf8')).toBe('bbbb\n');
    expect(r.metadata).toMatchObject({ changed_files: { created: [], modified: ['same-size.txt'], deleted: [] } });
  });

  it('declares the exec tier; refuses a cwd outside the workspace and bad timeouts', async () => {
    expect(bashTool.tier).toBe('exec');
    expect(resolveCapabilities(bashTool, { command: 'ls' })).toMatchObject({ readOnly: false, cancelSafe: false });
    await expect(call(bashTool, ws, { command: 'pwd', cwd: '../..' })).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
      field: 'cwd',
    });
    await expect(call(bashTool, ws, { command: 'pwd', timeout: 0 })).rejects.toMatchObject({ field: 'args.timeout' });
    await expect(call(bashTool, ws, { command: 'pwd', timeout: 600_001 })).rejects.toMatchObject({
      field: 'args.timeout',
    });
    expect((await call(bashTool, ws, { command: 'pwd', cwd: 'missing' })).exitCode).toBe(1);
  });
});

describe('bash live output', () => {
  it('streams stdout and stderr as they arrive; the result is unchanged', async () => {
    const seen: { delta: string; stream: string | undefined; at: number }[] = [];
    const ctx = {
      ...toolContext(ws, 'bash'),
      emitOutput: (delta: string, stream?: 'stdout' | 'stderr') => void seen.push({ delta, stream, at: Date.now() }),
    };
    const t0 = Date.now();
    const r = await (bashTool as Tool<unknown>).execute(
      { command: 'echo first; sleep 0.6; echo second >&2; echo third' },
      ctx,
    );
    const done = Date.now();
    expect(r.output).toBe('first\nthird\n[stderr]\nsecond\n');
    expect(seen.map((s) => [s.stream, s.delta])).toEqual([
      ['stdout', 'first\n'],
      ['stderr', 'second\n'],
      ['stdout', 'third\n'],
    ]);
    expect(seen[0]!.at - t0).toBeLessThan(done - t0 - 300);
  });

  it('stops the live view at its budget with one note', async () => {
    const seen: string[] = [];
    const ctx = { ...toolContext(ws, 'bash'), emitOutput: (delta: string) => void seen.push(delta) };
    const r = await (bashTool as Tool<unknown>).execute(
      { command: `head -c ${LIVE_OUTPUT_LIMITS.maxChars * 2} /dev/zero | tr '\\0' 'a'` },
      ctx,
    );
    expect(r.metadata).toMatchObject({ stdout: { total_bytes: LIVE_OUTPUT_LIMITS.maxChars * 2, truncated: true } });
    expect(seen.at(-1)).toContain('[live output stopped after');
    expect(seen.slice(0, -1).join('')).toBe('a'.repeat(LIVE_OUTPUT_LIMITS.maxChars));
    expect(Math.max(...seen.map((d) => d.length))).toBeLessThanOrEqual(LIVE_OUTPUT_LIMITS.chunkChars);
  });
});
