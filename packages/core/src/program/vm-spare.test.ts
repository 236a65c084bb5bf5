import { describe, expect, it } from 'vitest';
import { programHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;
const MiB = 1024 * 1024;

describe('spare VMs made ahead of programs', () => {
  it('each program still gets a VM no script has run in: globals, prototypes and ctx changes do not carry over', async () => {
    const h = programHarness();
    for (let i = 0; i < 3; i++) {
      const first = await h.run({
        source: run(
          'globalThis.leak = 1; Array.prototype.evil = 2; Object.prototype.bad = 3; try { ctx.tool = null; } catch (e) {} return [typeof leak, [].evil, ({}).bad];',
        ),
      });
      expect(first.metadata?.result).toEqual(['number', 2, 3]);
      const next = await h.run({
        source: run(
          "return [typeof leak, [].evil, ({}).bad, typeof ctx.tool, (await ctx.tool('echo', { text: 'x' })).output];",
        ),
      });
      expect(next.metadata?.result).toEqual(['undefined', null, null, 'function', 'x']);
    }
  });

  it('a program with other limits than the spare was made for runs under its own limits, and the default ones still hold after it', async () => {
    const h = programHarness();
    const grab = run(`const a = []; for (let i = 0; i < 20; i++) a.push(new Uint8Array(${MiB})); return a.length;`);
    expect((await h.run({ source: run('return 1;') })).output).toBe('1');
    const small = await h.run({ source: grab, limits: { memory_limit_bytes: 8 * MiB } });
    expect(small.error?.code).toBe('PROGRAM_MEMORY_LIMIT');
    expect((await h.run({ source: grab })).output).toBe('20');
    const deep = await h.run({ source: run('const f = (n) => (n === 0 ? 0 : 1 + f(n - 1)); return f(1e6);') });
    expect(deep.error?.code).toBe('PROGRAM_STACK_LIMIT');
    expect((await h.run({ source: run('return inputs.n + 1;'), inputs: { n: 41 } })).output).toBe('42');
  });
});

describe('ctx replies through the reply channel', () => {
  it('replies to concurrent calls all arrive, in any order, and a worker blocked waiting for one is ended at once by cancellation', async () => {
    const h = programHarness();
    const many = await h.run({
      source: run(
        "const r = await Promise.all([30, 1, 15, 0, 5].map((ms, i) => ms === 0 ? ctx.tool('echo', { text: 'e' + i }) : ctx.tool('sleep', { ms }).then(() => ctx.tool('echo', { text: 's' + i })))); return r.map((x) => x.output);",
      ),
    });
    expect(many.metadata?.result).toEqual(['s0', 's1', 's2', 'e3', 's4']);
    const ac = new AbortController();
    const waiting = h.run(
      { source: run("await ctx.tool('sleep', { ms: 9000 }); return 'late';"), limits: { timeout_ms: 60_000 } },
      'agent',
      ac.signal,
    );
    await new Promise((res) => setTimeout(res, 200));
    const t0 = performance.now();
    ac.abort(new Error('user stop'));
    const r = await waiting;
    expect(r.errorKind).toBe('cancelled');
    expect(performance.now() - t0).toBeLessThan(1000);
    expect((await h.run({ source: run("return (await ctx.tool('echo', { text: 'next' })).output;") })).output).toBe(
      'next',
    );
  });
});

describe('programs on a worker with a VM ready', () => {
  it('keep their deadline: a busy script stops with PROGRAM_TIMEOUT near timeout_ms, and the next program runs', async () => {
    const h = programHarness();
    const limits = { timeout_ms: 400 };
    await h.run({ source: run('return 0;'), limits });
    await h.run({ source: run('return 0;'), limits });
    const t0 = performance.now();
    const busy = await h.run({ source: run('for (;;) {}'), limits });
    const took = performance.now() - t0;
    expect(busy.error?.code).toBe('PROGRAM_TIMEOUT');
    expect(took).toBeGreaterThanOrEqual(395);
    expect(took).toBeLessThan(5000);
    expect((await h.run({ source: run('return 6 * 7;'), limits })).output).toBe('42');
  });
});
