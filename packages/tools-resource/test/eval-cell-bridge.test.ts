// The eval kernels' tool() bridge is tied to the cell that made the call, on real Python and Node
// kernels: what a cell leaves behind (a timer, a thread, a pending promise) cannot call tools once
// the cell has ended (it is refused, never served by the cell running then), a call the cell did
// not wait for is cut off when the cell ends, and callers of different runs get kernels of their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunOwner } from '@a3s-code/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BridgeReply, type EvalResource, evalResource, openEvalResource } from '../src/eval.js';

const ENDED = 'the cell that made this call has ended; tool() works only while its cell runs';

let dir: string;
let kernels: EvalResource;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-cell-bridge-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bridge that records the calls it serves and answers each at once. */
function recorder(label: string) {
  const calls: { name: string; args: unknown }[] = [];
  const bridge = async (name: string, args: unknown): Promise<BridgeReply> => {
    calls.push({ name, args });
    return { ok: true, output: `served by ${label}` };
  };
  return { calls, bridge };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('eval: a tool() call belongs to its cell', () => {
  const leftovers = {
    javascript: {
      plant: `globalThis.log = []; setInterval(() => tool('bash', { command: 'LEFT BEHIND' }).then((o) => log.push('ok ' + o), (e) => log.push(e.message)), 100); 'planted'`,
      read: `await new Promise((r) => setTimeout(r, 700)); console.log(JSON.stringify([...new Set(log)]))`,
    },
    python: {
      plant: [
        'import threading, time',
        'log = []',
        'def _loop():',
        '    while True:',
        '        try: log.append("ok " + tool("bash", {"command": "LEFT BEHIND"}))',
        '        except Exception as e: log.append(str(e))',
        '        time.sleep(0.1)',
        'threading.Thread(target=_loop, daemon=True).start()',
        "'planted'",
      ].join('\n'),
      read: 'import json, time\ntime.sleep(0.7)\nprint(json.dumps(sorted(set(log))))',
    },
  } as const;
  for (const language of ['javascript', 'python'] as const)
    it(`a ${language} timer or thread a cell left behind is refused in a later cell, never served by it`, async () => {
      const first = recorder('the first cell');
      const planted = await kernels.run(language, leftovers[language].plant, dir, { bridge: first.bridge });
      expect(planted.ok, planted.error).toBe(true);
      const later = recorder('the later cell');
      const read = await kernels.run(language, leftovers[language].read, dir, { bridge: later.bridge });
      expect(read.ok, read.error).toBe(true);
      expect(later.calls).toEqual([]);
      expect(JSON.parse(read.output)).toEqual([
        language === 'python'
          ? `${ENDED} (this thread was started without the cell's context: start it with contextvars.copy_context().run, or use asyncio.to_thread)`
          : ENDED,
      ]);
    });

  it('a Python thread that carries the cell context may call tools while the cell runs; one without it may not', async () => {
    const served = recorder('the cell');
    const code = [
      'import asyncio, threading',
      'out = await asyncio.to_thread(tool, "read", {"path": "a"})',
      'err = []',
      'def bare():',
      '    try: tool("read", {"path": "b"})',
      '    except ToolError as e: err.append(str(e))',
      't = threading.Thread(target=bare); t.start(); t.join()',
      '(out, err[0][:60])',
    ].join('\n');
    const run = await kernels.run('python', code, dir, { bridge: served.bridge });
    expect(run.ok, run.error).toBe(true);
    expect(served.calls).toEqual([{ name: 'read', args: { path: 'a' } }]);
    expect(run.echo).toBe(`('served by the cell', '${ENDED.slice(0, 60)}')`);
  });

  const unawaited = {
    javascript: `tool('bash', { command: 'sleep 60' }); 'returned'`,
    python: [
      'import contextvars, threading',
      'threading.Thread(target=contextvars.copy_context().run, args=(tool, "bash", {"command": "sleep 60"}), daemon=True).start()',
      'import time; time.sleep(0.3)',
      "'returned'",
    ].join('\n'),
  } as const;
  for (const language of ['javascript', 'python'] as const)
    it(`a ${language} call the cell did not wait for is aborted when the cell ends, and the result waits for it`, async () => {
      let aborted = false;
      let settled = false;
      const bridge = (_name: string, _args: unknown, signal: AbortSignal) =>
        new Promise<BridgeReply>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            // The call takes a moment to wind down: the cell's result waits for it.
            setTimeout(() => {
              settled = true;
              resolve({ ok: false, output: 'cancelled' });
            }, 200);
          });
        });
      const started = Date.now();
      const run = await kernels.run(language, unawaited[language], dir, { bridge });
      expect(run.ok, run.error).toBe(true);
      expect(run.echo).toBe("'returned'");
      expect({ aborted, settled, cutOff: run.cutOffCalls, bridgeCalls: run.bridgeCalls }).toEqual({
        aborted: true,
        settled: true,
        cutOff: 1,
        bridgeCalls: 1,
      });
      expect(Date.now() - started).toBeLessThan(10_000);
    });
});

describe('eval: kernels are kept apart per caller', () => {
  it("a child run's cells run in a kernel of their own, killed when the child ends; an unknown run gets none", async () => {
    await kernels.close();
    let childEnded!: () => void;
    const ended = new Promise<void>((r) => (childEnded = r));
    const owners: Record<string, RunOwner> = {
      'lead-1': { kind: 'session' },
      'lead-2': { kind: 'session' },
      'child-1': { kind: 'child', runId: 'child-1', ended },
    };
    kernels = await openEvalResource({ inactivityMs: 30_000, runOwner: (id) => owners[id] });
    const { bridge } = recorder('any');
    for (const language of ['python', 'javascript'] as const) {
      const set = language === 'python' ? 'secret = 42' : 'globalThis.secret = 42';
      const get = language === 'python' ? "globals().get('secret')" : 'globalThis.secret ?? null';
      expect((await kernels.run(language, set, dir, { bridge, runId: 'lead-1' })).ok).toBe(true);
      // The session's runs share their kernel (a later turn sees what an earlier one left).
      expect((await kernels.run(language, get, dir, { bridge, runId: 'lead-2' })).echo).toBe('42');
      const child = await kernels.run(language, get, dir, { bridge, runId: 'child-1' });
      expect(child.ok, child.error).toBe(true);
      expect(child.echo ?? null).toBe(language === 'python' ? null : 'null');
    }
    const running = kernels.kernels();
    expect(running.map((k) => `${k.owner} ${k.language}`).sort()).toEqual([
      'run child-1 javascript',
      'run child-1 python',
      'session javascript',
      'session python',
    ]);
    const childPids = running.filter((k) => k.owner === 'run child-1').map((k) => k.pid);
    childEnded();
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && childPids.some(alive); i++) await pause(50);
    expect(childPids.filter(alive)).toEqual([]);
    expect(kernels.kernels().map((k) => k.owner)).toEqual(['session', 'session']);
    await expect(kernels.run('python', '1', dir, { bridge, runId: 'someone-else' })).rejects.toMatchObject({
      code: 'EVAL_CALLER',
    });
    await expect(kernels.run('python', '1', dir, { bridge })).rejects.toMatchObject({ code: 'EVAL_CALLER' });
  });

  it('a session that cannot tell whose run a call is gets no kernel for anyone', async () => {
    const opened = await evalResource.open({
      sessionId: 's',
      clock: Date.now,
      settings: {},
      signal: new AbortController().signal,
    });
    try {
      await expect(
        opened.run('python', '1', dir, { bridge: recorder('any').bridge, runId: 'run-1' }),
      ).rejects.toMatchObject({ code: 'EVAL_CALLER' });
      expect(opened.kernels()).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
