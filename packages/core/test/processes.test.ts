// Tests with real child processes: a park answered from a second process, and SIGKILL at
// random points of a run followed by a resume in another process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { effectLogPath, parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { createTestToolPack, ScriptedConfirmationManager, ScriptedLlmClient } from '../src/testing/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { crashModel, recordPack, ROUNDS } from './fixtures/crash-world.mjs';

const fixtures = join(import.meta.dirname, 'fixtures');

function child(script: string, args: string[]) {
  const p = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)));
  const line = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.includes(text) ? resolve() : undefined);
      p.stdout.on('data', check);
      check();
      void exited.then(() => (out.includes(text) ? resolve() : reject(new Error(`child exited before '${text}': ${err}`))));
    });
  return { p, exited, line, output: () => out, errors: () => err };
}

describe('across processes', () => {
  it('PARK-11: a run parked in one process is answered and finished from another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-park-'));
    const c = child('park-child.mjs', [dir]);
    expect(await c.exited).toBe(0);
    const report = JSON.parse(c.output().trim()) as { status: string; parked: { toolId: string }; pid: number };
    expect(report).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'w1' } });
    expect(report.pid).not.toBe(process.pid);

    const test = createTestToolPack();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([{ text: 'done after approval' }]),
      tools: [test.pack],
      permissions: { ask: ['echo'] },
      confirmation: new ScriptedConfirmationManager(),
      parkMode: 'return',
    });
    const session = await agent.session(dir, { sessionId: 'parked' });
    try {
      expect(session.state.phase).toBe('confirm');
      await session.confirmToolUse('w1', true);
      const r = await session.resumeRun();
      expect(r).toMatchObject({ status: 'completed', text: 'done after approval' });
      expect(test.state.executions.map((e) => e.args)).toMatchObject([{ text: 'approved work' }]);
    } finally {
      await session.close();
    }
  });

  it('crash test: SIGKILL at 50 random points; the log always parses, resumeRun completes, no recorded tool runs twice', async () => {
    const rounds = 50;
    let killedMidRun = 0;
    for (let i = 0; i < rounds; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'a3s-crash-'));
      const execFile = join(dir, 'executions.txt');
      writeFileSync(execFile, '');
      const c = child('crash-child.mjs', [dir, execFile]);
      await c.line('ready');
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 60)));
      c.p.kill('SIGKILL');
      await c.exited;
      if (!c.output().includes('finished')) killedMidRun++;

      const logFile = join(dir, effectLogPath('crash'));
      const before = existsSync(logFile) ? parseLog(readFileSync(logFile, 'utf8')) : { facts: [] };
      const recorded = new Set(before.facts.filter((f) => f.type === 'tool.result').map((f) => (f.payload as { tool_call_id: string }).tool_call_id));

      const agent = await Agent.create({ model: crashModel, tools: [recordPack(execFile, 'parent')], permissions: { defaultDecision: 'allow' }, recipe: { tool_budget: 100 } });
      const session = await agent.session(dir, { sessionId: 'crash' });
      try {
        if (session.state.counters.facts === 0) await session.send('record everything');
        else {
          const r = await session.resumeRun();
          if (r.text !== 'all recorded') {
            // The child had finished its run before the kill: nothing to resume.
            expect(r.steps).toBe(0);
          }
        }
        expect(session.state.view.assistant_text).toBe('all recorded');
      } finally {
        await session.close();
      }
      const execs = readFileSync(execFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]);
      for (const id of recorded) expect(execs.filter(([who, x]) => who === 'parent' && x === id), `call ${id} had a result before the crash but ran again`).toEqual([]);
      const after = parseLog(readFileSync(logFile, 'utf8'));
      expect(after.torn).toBeUndefined();
      const results = after.facts.filter((f) => f.type === 'tool.result').map((f) => (f.payload as { tool_call_id: string }).tool_call_id);
      expect(results.length).toBe(ROUNDS * 2);
      expect(new Set(results).size).toBe(results.length);
      for (const id of results) expect(execs.filter(([, x]) => x === id).length).toBeLessThanOrEqual(2);
    }
    // The kill points must actually land inside runs, or the test proves nothing.
    expect(killedMidRun).toBeGreaterThan(rounds / 4);
  }, 120_000);
});
