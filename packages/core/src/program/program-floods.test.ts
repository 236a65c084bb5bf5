import { describe, expect, it } from 'vitest';
import { PROGRAM_LIMITS } from './program-args.js';
import { runProgramInWorker } from './program-runner.js';
import type { ProgramHost } from './program-vm.js';
import { programHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;

describe('programs that flood the host with calls or logs (PROG-07)', () => {
  it('PROG-07: thousands of ctx calls started at once all settle while the VM memory grows under them', async () => {
    const h = programHarness();
    // Each pending call holds a VM promise: a few thousand of them make the VM's memory grow
    // during a ctx call, which must not fail the call with an error of the sandbox's own.
    const r = await h.run({
      source: run(`
        const pending = [];
        for (let i = 0; i < 5000; i++) pending.push(ctx.tool('nope'));
        const settled = await Promise.allSettled(pending);
        return { n: settled.length, refused: settled.filter((s) => s.reason?.code === 'TOOL_NOT_ALLOWED').length };`),
      allowed_tools: ['echo'],
      limits: { timeout_ms: 120_000 },
    });
    expect(r.error).toBeUndefined();
    expect(r.metadata.result).toEqual({ n: 5000, refused: 5000 });
    expect(r.metadata.program).toMatchObject({ refused: ['nope'], refused_calls: 5000, tool_calls: 0 });
  });

  it('PROG-06: refused tools are listed once each, cut short and at most 32; errors quote the name clipped', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const long = 'x'.repeat(100000);
        const messages = [];
        for (let i = 0; i < 200; i++) {
          try { await ctx.tool(i + long); } catch (e) { messages.push(e.message.length); }
          try { await ctx.tool('nope'); } catch (e) {}
        }
        let odd;
        try { await ctx.tool('a\\nb'); } catch (e) { odd = e.message; }
        return { longest: Math.max(...messages), odd };`),
      allowed_tools: ['echo'],
      limits: { timeout_ms: 120_000 },
    });
    const program = r.metadata.program as { refused: string[]; refused_calls: number };
    expect(program.refused_calls).toBe(401);
    expect(program.refused).toHaveLength(32);
    expect(program.refused[0]).toBe(`0${'x'.repeat(127)}…`);
    expect(program.refused[1]).toBe('nope');
    expect(program.refused.every((n) => n.length <= 129)).toBe(true);
    expect(JSON.stringify(r.metadata).length).toBeLessThan(16_384);
    const result = r.metadata.result as { longest: number; odd: string };
    expect(result.longest).toBeLessThan(1000);
    expect(result.odd).not.toMatch(/\n/);
    expect(result.odd).toMatch(/no tool "a\\u000ab" is on the tool surface of this call/);
  });

  it('PROG-07: log lines over max_output_bytes never leave the worker; the dropped bytes are still counted', async () => {
    let sent = 0;
    let dropped = 0;
    const host: ProgramHost = {
      call: () => Promise.reject(new Error('no calls here')),
      log: () => {
        sent += 1;
      },
      logDropped: (bytes) => {
        dropped += bytes;
      },
      violation: () => undefined,
      toolCalls: () => 0,
    };
    const outcome = await runProgramInWorker({
      source: run("const line = 'y'.repeat(999); for (let i = 0; i < 2000; i++) ctx.log(line); return 'done';"),
      file: 'logs.js',
      module: false,
      inputsJson: 'undefined',
      timeoutMs: 60_000,
      memoryLimitBytes: PROGRAM_LIMITS.memoryLimitBytes.default,
      maxStackBytes: PROGRAM_LIMITS.maxStackBytes,
      maxResultChars: 4096,
      maxLogBytes: 4096,
      signal: new AbortController().signal,
      host,
    });
    expect(outcome.text).toBe('done');
    // Four lines of 1000 bytes with their newlines fit in 4096 bytes; the other 1996 are only counted.
    expect(sent).toBe(4);
    expect(dropped).toBe(1996 * 1000);
  });

  it('PROG-07: a script logging huge lines without end stops at its deadline and the host keeps turning', async () => {
    const h = programHarness();
    await h.run({ source: run('return 0;') });
    let ticks = 0;
    const interval = setInterval(() => (ticks += 1), 20);
    try {
      const r = await h.run({
        source: run("const s = 'x'.repeat(1 << 20); for (;;) ctx.log(s);"),
        limits: { timeout_ms: 1500 },
      });
      expect(r.error?.code).toBe('PROGRAM_TIMEOUT');
      expect(ticks).toBeGreaterThan(25);
    } finally {
      clearInterval(interval);
    }
    const after = await h.run({
      source: run("ctx.log('a'); ctx.log('b'.repeat(300)); ctx.log('c'); return 'ok';"),
      limits: { max_output_bytes: 256 },
    });
    expect(after.output).toMatch(/^log:\na\nc\n/);
    expect(after.metadata.program).toMatchObject({ dropped_log_bytes: 301 });
  });
});
