// Workers survive as logs: a host process running a session in vibe mode is SIGKILLed while one
// worker is mid-run and another has finished; the session reopened in this process lists both
// with their last recorded state, and the interrupted one can be sent more work on its thread.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmClient } from '@a3s-code/core';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { tempRepo } from './kit.js';

const routing = (name: string, scripts: Record<string, ScriptedTurn[]>): LlmClient =>
  new RoutingModel(name, scripts) as LlmClient;

let session: Session | undefined;
let dir: string | undefined;
afterEach(async () => {
  await session?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the child host until it prints READY, then SIGKILLs it; resolves with what it printed. */
function runAndKill(workspace: string, sessionId: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'fixtures', 'vibe-child.mjs'), workspace, sessionId],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child never got ready:\n${out}\n${err}`));
    }, 30_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY\n')) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && out.includes('READY\n')) resolve(out);
      else reject(new Error(`the child exited on its own (${String(signal)}):\n${out}\n${err}`));
    });
  });
}

describe('vibe: workers survive the host process as logs', () => {
  it('VIBE-07: after SIGKILL mid-run, the reopened session lists the interrupted worker and the finished one; vibe_send continues the interrupted one', async () => {
    dir = tempRepo();
    const printed = await runAndKill(dir, 'vibe-crash');
    expect(printed).toContain('worker_spawned');
    expect(existsSync(join(dir, 'slow.txt'))).toBe(true);

    const fast = routing('fast', {
      'slow-1': [{ text: 'picked up where it stopped' }],
      third: [{ text: 'third done' }],
    });
    const agent = await Agent.create({ model: routing('lead', {}) });
    session = await agent.session(dir, { sessionId: 'vibe-crash', vibe: { tiers: { fast } } });
    const listed = JSON.parse((await session.tool('vibe_list', {})).output) as {
      running: number;
      workers: Record<string, unknown>[];
    };
    expect(listed.running).toBe(0);
    expect(listed.workers).toEqual([
      expect.objectContaining({
        worker_id: 'worker-1',
        label: 'slow one',
        tier: 'fast',
        status: 'interrupted',
        runs: 1,
        last_result: '',
      }),
      expect.objectContaining({
        worker_id: 'worker-2',
        label: 'quick one',
        tier: 'good',
        status: 'completed',
        last_result: 'quick done',
      }),
    ]);
    expect(listed.workers[0]!.elapsed_seconds).toBeGreaterThanOrEqual(0);

    const sent = JSON.parse((await session.tool('vibe_send', { worker_id: 'worker-1', message: 'finish up' })).output);
    expect(sent).toMatchObject({ worker_id: 'worker-1', status: 'running', runs: 2 });
    const waited = JSON.parse((await session.tool('vibe_wait', { worker_id: 'worker-1' })).output);
    expect(waited).toMatchObject({ status: 'completed', last_result: 'picked up where it stopped', runs: 2 });
    // A new worker does not reuse an id the logs already hold.
    const spawned = await session.tool('vibe_spawn', { brief: 'third', label: 'another' });
    expect(JSON.parse(spawned.output)).toMatchObject({ worker_id: 'worker-3' });
    expect(JSON.parse((await session.tool('vibe_wait', { worker_id: 'worker-3' })).output)).toMatchObject({
      status: 'completed',
      last_result: 'third done',
    });
  });
});
