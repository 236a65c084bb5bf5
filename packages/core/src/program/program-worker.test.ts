import { describe, expect, it } from 'vitest';
import { programHarness } from './test-support/program-harness.js';
import {
  type ProgramError,
  ProgramInvalidError,
  ProgramMemoryLimitError,
  ProgramRuntimeError,
  ProgramStackLimitError,
  ProgramSyntaxError,
  ProgramTimeoutError,
  ProgramToolCallLimitError,
} from './program-errors.js';
import { fromWireError, toWireError } from './worker-protocol.js';
import { runningPrograms } from './worker-pool.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;

describe('program in a worker thread (PROG-07)', () => {
  it('while a while(true) program runs, the host event loop keeps serving: timers tick and another program completes', async () => {
    const h = programHarness();
    // Two warm workers, so the busy one and the other program both start at once.
    await Promise.all([h.run({ source: run('return 0;') }), h.run({ source: run('return 1;') })]);
    const busy = h.run({ source: run('while (true) {}'), limits: { timeout_ms: 1500 } });
    let ticks = 0;
    const interval = setInterval(() => (ticks += 1), 10);
    try {
      await new Promise((res) => setTimeout(res, 300));
      const other = await h.run({ source: run("return (await ctx.tool('echo', { text: 'still here' })).output;") });
      expect(other.output).toBe('still here');
      const ticksWhileBusy = ticks;
      expect(ticksWhileBusy).toBeGreaterThanOrEqual(10);
      const r = await busy;
      expect(r.error?.code).toBe('PROGRAM_TIMEOUT');
      expect(ticks).toBeGreaterThan(ticksWhileBusy + 50);
    } finally {
      clearInterval(interval);
    }
  });

  it('a program calling tools back to back gets every answer, and its logs keep their order among the calls', async () => {
    const h = programHarness();
    await h.run({ source: run('return 0;') });
    const calls = 1000;
    // The host takes each next call as soon as the worker posts it (how long it may hold its event
    // loop doing so is pinned in next-message.test.ts); nothing is lost or reordered on the way.
    const r = await h.run({
      source: run(
        `let sum = 0; for (let i = 0; i < ${calls}; i++) { sum += (await ctx.tool('echo', { text: String(i) })).output.length; if (i % 250 === 0) ctx.log('at', i); } return sum;`,
      ),
      limits: { max_tool_calls: calls, timeout_ms: 60_000 },
    });
    // The lengths of "0" to "999": 10 + 90 * 2 + 900 * 3.
    expect(r.output).toBe('log:\nat 0\nat 250\nat 500\nat 750\n\nresult:\n2890');
    expect((r.metadata.program as { calls: unknown[] }).calls).toHaveLength(calls);
  });

  it('aborting the call terminates a busy script at once, as CANCELLED', async () => {
    const h = programHarness();
    await h.run({ source: run('return 0;') });
    const ac = new AbortController();
    const busy = h.run(
      { source: run('let n = 0; for (;;) n = (n + 1) % 7;'), limits: { timeout_ms: 60_000 } },
      'agent',
      ac.signal,
    );
    await new Promise((res) => setTimeout(res, 150));
    const t0 = performance.now();
    ac.abort(new Error('user stop'));
    const r = await busy;
    const took = performance.now() - t0;
    expect(r.errorKind).toBe('cancelled');
    // Typically a few ms; the bound leaves room for a loaded CI machine while staying far below
    // the 60 s deadline a host-blocking VM would wait for.
    expect(took).toBeLessThan(1000);
    expect((await h.run({ source: run('return 6 * 7;') })).output).toBe('42');
  });

  it('a limit violation ends a script that swallows the error and keeps computing', async () => {
    const h = programHarness();
    const t0 = Date.now();
    const r = await h.run({
      source: run("try { await ctx.tool('noop', {}); await ctx.tool('noop', {}); } catch (e) {} for (;;) {}"),
      limits: { max_tool_calls: 1, timeout_ms: 20_000 },
    });
    expect(r.error?.code).toBe('PROGRAM_TOOL_CALL_LIMIT');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('many programs run side by side, each in its own worker and VM', async () => {
    const h = programHarness();
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h.run({ source: run(`globalThis.mine = ${i}; await ctx.tool('noop', {}); return globalThis.mine;`) }),
      ),
    );
    expect(rs.map((r) => r.metadata.result)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('program errors across the worker port', () => {
  it('revive with their class, code, message, details and line', () => {
    const loc = { file: 'program.js', line: 3, column: 7 };
    const errors: ProgramError[] = [
      new ProgramInvalidError('source', 'the script must define `run`'),
      new ProgramSyntaxError(loc, "unexpected token in expression: ')'"),
      new ProgramRuntimeError(loc, 'TypeError', 'x is not a function: a: b', '    at run (program.js:3:7)'),
      new ProgramRuntimeError({ file: 'program.js' }, 'thrown value', '"boom"', ''),
      new ProgramTimeoutError(100, 2),
      new ProgramToolCallLimitError(3, 'echo'),
      new ProgramMemoryLimitError(1024),
      new ProgramStackLimitError({ file: 'a.js', line: 2 }, 4096),
    ];
    for (const e of errors) {
      const back = fromWireError(structuredClone(toWireError(e)));
      expect(back).toBeInstanceOf(e.constructor);
      expect(back).toMatchObject({ code: e.code, message: e.message, details: e.details, line: e.line });
    }
    const plain = fromWireError(
      toWireError(Object.assign(new Error('nope'), { name: 'ToolNotAllowedError', code: 'TOOL_NOT_ALLOWED' })),
    );
    expect(plain).toMatchObject({ name: 'ToolNotAllowedError', message: 'nope', code: 'TOOL_NOT_ALLOWED' });
  });

  it('the count of running programs (which decides whether workers wait busily) returns to zero however programs end', async () => {
    const h = programHarness();
    const base = runningPrograms();
    const cancel = new AbortController();
    const ends = Promise.all([
      h.run({ source: run("return (await ctx.tool('echo', { text: 'ok' })).output;") }),
      h.run({ source: run('while (true) {}'), limits: { timeout_ms: 200 } }),
      h.run({ source: run("throw new Error('boom');") }),
      h.run({ source: run("await ctx.tool('sleep', { ms: 10000 });") }, 'agent', cancel.signal),
      h.run({
        source: run('const a = []; for (;;) a.push(new Uint8Array(1e6));'),
        limits: { memory_limit_bytes: 8 * 1024 * 1024 },
      }),
    ]);
    await new Promise((res) => setTimeout(res, 100));
    expect(runningPrograms()).toBeGreaterThan(base);
    cancel.abort(new Error('stop'));
    const results = await ends;
    expect(results.map((r) => r.error?.code ?? 'ok')).toEqual([
      'ok',
      'PROGRAM_TIMEOUT',
      'PROGRAM_RUNTIME',
      results[3]!.error?.code,
      'PROGRAM_MEMORY_LIMIT',
    ]);
    expect(results[3]!.ok).toBe(false);
    expect(runningPrograms()).toBeLessThanOrEqual(base);
  });
});
