// Ctrl-C during a flow in `a3s code` (in-process, the Ctrl-C injected as the SIGINT `a3s code`
// listens for): `/ultracode` stops, the prompt comes back, and `/resume` continues the flow under
// its run id with the finished steps recovered; a workflow the model starts inside a run stops
// with the run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo } from './kit.js';

/** Starts `a3s code` and returns a Ctrl-C that reaches only the listeners it added. */
function code(dir: string, turns: unknown[], extra: string[] = []) {
  const before = new Set(process.listeners('SIGINT'));
  const h = ioHarness(dir);
  const exited = main(['code', '--model', `scripted:${scriptFile(turns)}`, '--cwd', dir, ...extra], h.io);
  const out = () => h.stdout.text + h.stderr.text;
  return {
    h,
    exited,
    out,
    ctrlC: () => {
      for (const l of process.listeners('SIGINT')) if (!before.has(l)) (l as (s: string) => void)('SIGINT');
    },
    wait: (what: string | RegExp, ms?: number) =>
      until(() => (typeof what === 'string' ? out().includes(what) : what.test(out())), out, ms),
  };
}

const PLAN = {
  summary: 'Make range include its end.',
  tasks: [{ title: 'fix range', instructions: 'In src/range.js make the loop include end.' }],
  verification: 'node --test',
};

describe('a3s code: Ctrl-C during a flow', () => {
  it('STEER-04: Ctrl-C interrupts /ultracode, the prompt comes back, /resume continues it with its finished steps', async () => {
    const dir = tempRepo();
    const c = code(
      dir,
      [
        { tool_calls: [{ id: 'p1', name: 'plan', args: PLAN }] },
        // The sub-agent's command marks that it runs, then hangs until the interrupt cuts it short.
        { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch STARTED && sleep 20' } }] },
      ],
      ['--yolo'],
    );
    await c.wait('type a prompt');
    c.h.stdin.write('/ultracode make range include its end\n');
    await c.wait('▸ implement (parallel_task)');
    // Interrupt only once the sub-agent is at work: sooner, it would stop before it took its turn.
    await until(
      () => existsSync(join(dir, 'STARTED')),
      () => c.out(),
    );
    const t0 = Date.now();
    c.ctrlC();
    await c.wait(/workflow ultracode interrupted · run (wf-\S+); \/resume continues it/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(c.out()).toContain('interrupting… (Ctrl-C again to exit)');
    const runId = /workflow ultracode · run (wf-\S+)/.exec(c.out())![1]!;
    // The prompt is back: a command answers.
    c.h.stdin.write('/vibe off\n');
    await c.wait('vibe mode off');
    c.h.stdin.write('/resume\n');
    await c.wait('↺ plan (recovered from the earlier attempt)');
    expect(c.out().split(`workflow ultracode · run ${runId}`).length).toBe(3);
    // The script has no more turns: the continued flow fails at implement, and the prompt is back.
    await c.wait(/ultracode failed · \d+ step\(s\) run, 1 recovered/);
    c.h.stdin.write('/resume\n');
    await c.wait('nothing to resume: no run yet');
    c.h.stdin.write('/exit\n');
    // The last flow failed: a3s code says so by its exit status.
    expect(await c.exited).toBe(1);
  }, 30_000);

  it('STEER-04: a workflow the model starts inside a run stops with the run on Ctrl-C', async () => {
    const dir = tempRepo();
    const c = code(
      dir,
      [
        {
          tool_calls: [
            { id: 'w1', name: 'dynamic_workflow', args: { flow: 'ultracode', query: 'make range include its end' } },
          ],
        },
        { delay_ms: 20_000, text: 'never' },
        { text: 'Picked up.' },
      ],
      ['--yolo'],
    );
    await c.wait('type a prompt');
    c.h.stdin.write('fix range with a workflow\n');
    await c.wait('▸ plan (generate_object)');
    const t0 = Date.now();
    c.ctrlC();
    await c.wait(/cancelled · 1 tool call\(s\)/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    c.h.stdin.write('/resume\n');
    await c.wait('continuing the interrupted run in a new run…');
    await c.wait(/Picked up\.\n.*completed/);
    c.h.stdin.write('/exit\n');
    expect(await c.exited).toBe(0);
  }, 30_000);
});
