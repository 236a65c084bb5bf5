// Resuming a session whose last run already ended, or whose process died near the end of a run:
// the completion gate reads its evidence and its continuation budget from the log, so a new
// process (a new Agent) decides as the one that wrote the log would have, and a run the log
// records as ended is never run again nor given facts after its end.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { effectLogPath, parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';

const CHILD = join(import.meta.dirname, 'fixtures', 'resume-gate-child.mjs');
const logOf = (dir: string, thread: string) => join(dir, effectLogPath(thread));
const factsOf = (dir: string, thread: string) => parseLog(readFileSync(logOf(dir, thread), 'utf8')).facts;

/** Runs the fixture child until it says `hang ...`, then SIGKILLs it; returns what it printed. */
async function killAtHang(dir: string, mode: 'start' | 'resume', hang: string, then = 'text'): Promise<string> {
  const child = spawn(process.execPath, [CHILD, dir, mode, hang, then], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!out.includes('hang ')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the child never hung: ${out}${err}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
  return out;
}

const write = { tool_calls: [{ id: 'w', name: 'write', args: { file_path: 'f.txt', content: 'x' } }] };
const verify = {
  tool_calls: [{ id: 'v', name: 'verify', args: { subject: 's', commands: [{ id: 'c', command: 'true' }] } }],
};

async function openOn(dir: string, model: ScriptedLlmClient, sessionId: string) {
  const agent = await Agent.create({ model });
  return agent.session(dir, { sessionId, governance: { yolo: true } });
}

describe('resumeRun in a new process after the last run ended', () => {
  for (const kind of ['verified', 'narrative'] as const) {
    it(`RES-05: a ${kind} run is not run again: no model call, nothing appended, the recorded completion`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'a3s-resume-ended-'));
      const turns = kind === 'verified' ? [write, verify] : [{ text: 'hi' }];
      const first = await openOn(dir, new ScriptedLlmClient(turns), 's');
      const ran = await first.send('go');
      expect(ran).toMatchObject({ status: 'completed', completion: kind });
      await first.close();
      const before = readFileSync(logOf(dir, 's'), 'utf8');

      const model = new ScriptedLlmClient([{ text: 'extra 1' }, { text: 'extra 2' }, { text: 'extra 3' }]);
      const again = await openOn(dir, model, 's');
      for (let i = 0; i < 2; i++)
        expect(await again.resumeRun()).toMatchObject({
          runId: ran.runId,
          status: 'completed',
          completion: kind,
          steps: 0,
        });
      await again.close();
      expect(model.requests).toHaveLength(0);
      expect(readFileSync(logOf(dir, 's'), 'utf8')).toBe(before);
      expect(factsOf(dir, 's').at(-1)?.type).toBe('run.ended');
    });
  }
});

describe('the completion gate across a crash', () => {
  it('GATE-06: a process killed after a passing verify was logged, before run.ended: the resume completes verified with no model call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-verify-lost-'));
    await killAtHang(dir, 'start', 'stop', 'verify');
    const cut = factsOf(dir, 'gated');
    expect(cut.at(-1)).toMatchObject({ type: 'tool.result', payload: { name: 'verify', ok: true } });
    expect(cut.some((f) => f.type === 'run.ended')).toBe(false);

    const model = new ScriptedLlmClient([{ text: 'should not be asked' }]);
    const session = await openOn(dir, model, 'gated');
    const result = await session.resumeRun(undefined, { rebind: true });
    await session.close();
    expect(result).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(result.verification).toMatchObject({ status: 'passed', run_id: result.runId });
    expect(model.requests).toHaveLength(0);
    const after = factsOf(dir, 'gated');
    // The child's stop hook is not part of this process: the run is rebound, then ends.
    expect(after.slice(cut.length).map((f) => f.type)).toEqual(['run.rebound', 'run.ended']);
    expect(after.at(-1)).toMatchObject({ payload: { status: 'completed', completion: 'verified' } });
  }, 60_000);

  it('GATE-01: a verify report the log does not record as the result of a verify call of that run does not verify it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-verify-forged-'));
    await killAtHang(dir, 'start', 'stop', 'verify');
    // The same report, moved onto the write's result: not a recorded result of the verify tool.
    const lines = readFileSync(logOf(dir, 'gated'), 'utf8').trim().split('\n');
    const facts = lines.map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    const report = (facts.at(-1)!.payload.metadata as { report: unknown }).report;
    const writeResult = facts.findIndex((f) => f.type === 'tool.result' && f.payload.name === 'write');
    (facts[writeResult]!.payload.metadata as Record<string, unknown>).report = report;
    writeFileSync(
      logOf(dir, 'gated'),
      `${facts
        .slice(0, -2)
        .map((f) => JSON.stringify(f))
        .join('\n')}\n`,
    );
    // A forger that also removes the store's seal gets past it (FACT_LOG_CHANGED otherwise): the gate still holds.
    rmSync(`${logOf(dir, 'gated')}.seal`);

    const model = new ScriptedLlmClient([{ text: 'done' }]);
    const agent = await Agent.create({ model });
    const session = await agent.session(dir, {
      sessionId: 'gated',
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
    });
    const result = await session.resumeRun(undefined, { rebind: true }).catch((e: unknown) => e);
    await session.close();
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  }, 60_000);

  it('the 3 continuation turns of a run are counted from the log: a run killed and resumed 3 times gets 3 in all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-cont-'));
    // Call 1 writes, call 2 answers (continuation 1), call 3 hangs.
    await killAtHang(dir, 'start', 'model:3');
    // Each resume: call 1 answers (one more continuation), call 2 hangs.
    await killAtHang(dir, 'resume', 'model:2');
    await killAtHang(dir, 'resume', 'model:2');
    const continuations = () =>
      factsOf(dir, 'gated').filter(
        (f) => f.type === 'user.message' && (f.payload as { origin?: unknown }).origin === 'completion_gate',
      );
    expect(continuations()).toHaveLength(3);

    const model = new ScriptedLlmClient([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }]);
    const session = await openOn(dir, model, 'gated');
    const result = await session.resumeRun(undefined, { rebind: true }).catch((e: unknown) => e);
    await session.close();
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(model.requests).toHaveLength(1);
    expect(continuations()).toHaveLength(3);
    expect(factsOf(dir, 'gated').at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'failed' } });
  }, 60_000);
});
