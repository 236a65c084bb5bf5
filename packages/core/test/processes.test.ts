// Tests with real child processes: a park answered from a second process, and SIGKILL at
// seeded points of a run followed by a resume in another process (rounds in crash-kit.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { createTestToolPack, ScriptedConfirmationManager, ScriptedLlmClient } from '../src/testing/index.js';
import { child, crashRound, crashSettings, inParallel, killPlans } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { ROUNDS } from './fixtures/crash-world.mjs';

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

  // A3S_CRASH_ROUNDS and A3S_CRASH_SEED replay or widen it; `pnpm soak crash-resume` runs 200 rounds.
  const { rounds, seed, parallel } = crashSettings(12);
  it(`crash test: SIGKILL at ${rounds} seeded points (seed ${seed}); the log always parses, resumeRun completes, no recorded tool runs twice`, async () => {
    const plans = killPlans(seed, rounds);
    const results = await inParallel(rounds, parallel, (i) => crashRound(plans[i]!));
    for (const [i, r] of results.entries())
      expect(r.problems, `seed ${seed} round ${i}: ${JSON.stringify(r.plan)}`).toEqual([]);
    // The kill points must actually land inside runs, or the test proves nothing.
    expect(results.filter((r) => r.killedMidRun).length).toBeGreaterThan(rounds / 4);
    // ...and at different places: before any result, between results, after the last one.
    expect(results.some((r) => r.killedMidRun && r.recorded === 0)).toBe(true);
    expect(results.some((r) => r.recorded > 0 && r.recorded < ROUNDS * 2)).toBe(true);
  }, 120_000);
});
