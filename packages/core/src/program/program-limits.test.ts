import { describe, expect, it } from 'vitest';
import { programHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;

describe('program limits (PROG-07)', () => {
  it('max_tool_calls: exactly N calls succeed; call N+1 stops the program even if the script catches', async () => {
    const h = programHarness();
    const ok = await h.run({
      source: run("for (let i = 0; i < 3; i++) await ctx.tool('noop', {}); return 'ok';"),
      limits: { max_tool_calls: 3 },
    });
    expect(ok.output).toBe('ok');
    const over = await h.run({
      source: run(
        "for (let i = 0; i < 4; i++) { try { await ctx.tool('echo', { text: String(i) }); } catch (e) {} } return 'swallowed';",
      ),
      limits: { max_tool_calls: 3 },
    });
    expect(over.error).toMatchObject({
      code: 'PROGRAM_TOOL_CALL_LIMIT',
      details: { max_tool_calls: 3, attempted: 'echo' },
    });
    expect(h.state.executions.filter((e) => e.tool === 'echo')).toHaveLength(3);
    const zero = await h.run({ source: run("await ctx.tool('noop', {});"), limits: { max_tool_calls: 0 } });
    expect(zero.error?.code).toBe('PROGRAM_TOOL_CALL_LIMIT');
    const parallel = await h.run({
      source: run("await Promise.all([1,2,3].map((i) => ctx.tool('echo', { text: 'p' + i })));"),
      limits: { max_tool_calls: 2 },
    });
    expect(parallel.error?.code).toBe('PROGRAM_TOOL_CALL_LIMIT');
  });

  it('max_tool_calls: a batch counts as the calls it makes, so it cannot multiply the budget', async () => {
    const h = programHarness();
    const batch = (n: number) =>
      `ctx.tool('batch', { calls: Array.from({ length: ${n} }, (_, i) => ({ tool: 'echo', args: { text: 'b' + i } })) })`;
    const fits = await h.run({ source: run(`await ${batch(3)}; return 'ok';`), limits: { max_tool_calls: 3 } });
    expect(fits.output).toBe('ok');
    expect(h.state.executions.filter((e) => e.tool === 'echo')).toHaveLength(3);
    const over = await h.run({
      source: run(`await ctx.tool('noop', {}); await ${batch(3)};`),
      limits: { max_tool_calls: 3 },
    });
    expect(over.error).toMatchObject({ code: 'PROGRAM_TOOL_CALL_LIMIT', details: { attempted: 'batch' } });
    expect(h.state.executions.filter((e) => e.tool === 'echo')).toHaveLength(3);
  });

  it('timeout_ms: a child call in flight at the deadline is aborted and the program fails with PROGRAM_TIMEOUT', async () => {
    const h = programHarness();
    await h.run({ source: run('return 0;') }); // a warm worker: the bound below is about the deadline, not a worker start
    const t0 = Date.now();
    const r = await h.run({ source: run("await ctx.tool('sleep', { ms: 5000 });"), limits: { timeout_ms: 120 } });
    expect(r.error).toMatchObject({ code: 'PROGRAM_TIMEOUT', details: { timeout_ms: 120, tool_calls: 1 } });
    expect(Date.now() - t0).toBeLessThan(1000);
    await new Promise((res) => setTimeout(res, 20));
    expect(h.state.running).toBe(0);
    const fast = await h.run({
      source: run("await ctx.tool('sleep', { ms: 10 }); return 'in time';"),
      limits: { timeout_ms: 2000 },
    });
    expect(fast.output).toBe('in time');
  });

  it('timeout_ms bounds: 0 and above 600000 are invalid arguments naming the field', async () => {
    const h = programHarness();
    const low = await h.run({ source: run(''), limits: { timeout_ms: 0 } });
    expect(low.errorKind).toBe('invalid_args');
    expect(low.output).toMatch(/args\.limits\.timeout_ms/);
    const high = await h.run({ source: run(''), limits: { timeout_ms: 600_001 } });
    expect(high.output).toMatch(/args\.limits\.timeout_ms/);
    const extra = await h.run({ source: run(''), limits: { timeoutMs: 10 } });
    expect(extra.errorKind).toBe('invalid_args');
  });

  it('max_output_bytes: output exactly at the limit is whole; one byte over is cut with a note; logs share the budget', async () => {
    const h = programHarness();
    const exact = await h.run({ source: run("return 'a'.repeat(256);"), limits: { max_output_bytes: 256 } });
    expect(exact.output).toBe('a'.repeat(256));
    expect(exact.metadata.program).toMatchObject({ truncated: false, result_kept: true });
    const over = await h.run({ source: run("return 'a'.repeat(257);"), limits: { max_output_bytes: 256 } });
    expect(Buffer.byteLength(over.output)).toBeLessThanOrEqual(256);
    expect(over.output).toMatch(/output cut/);
    const logs = await h.run({
      source: run("for (let i = 0; i < 100; i++) ctx.log('line ' + i + ' ' + 'z'.repeat(40)); return 'r';"),
      limits: { max_output_bytes: 1024 },
    });
    expect(Buffer.byteLength(logs.output)).toBeLessThanOrEqual(1024);
    expect((logs.metadata.program as { dropped_log_bytes: number }).dropped_log_bytes).toBeGreaterThan(0);
    const utf = await h.run({ source: run("return '€'.repeat(200);"), limits: { max_output_bytes: 256 } });
    expect(utf.output).not.toMatch(/\uFFFD/);
    expect(Buffer.byteLength(utf.output)).toBeLessThanOrEqual(256);
  });

  it('cancellation of the run stops a waiting program and its child call with CANCELLED, not a timeout', async () => {
    const h = programHarness();
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user stop')), 60);
    const t0 = Date.now();
    const r = await h.run(
      { source: run("await ctx.tool('sleep', { ms: 5000 });"), limits: { timeout_ms: 10_000 } },
      'agent',
      ac.signal,
    );
    expect(r.errorKind).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(h.state.running).toBe(0);
  });

  it('inputs must be JSON-sized; non-object inputs pass through', async () => {
    const h = programHarness();
    expect((await h.run({ source: run('return typeof inputs;') })).output).toBe('undefined');
    expect((await h.run({ source: run('return inputs;'), inputs: 'text' })).output).toBe('text');
    const big = await h.run({ source: run('return 1;'), inputs: 'x'.repeat(1_100_000) });
    expect(big.error?.code).toBe('PROGRAM_INVALID');
  });

  it('PROG-01: inputs reach run() as their JSON: a "__proto__" key is a property, not the prototype', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(
        'return { keys: Object.keys(inputs), inherited: inputs.admin, plain: Object.getPrototypeOf(inputs) === Object.prototype, own: inputs.__proto__ };',
      ),
      inputs: JSON.parse('{"__proto__": {"admin": true}, "q": 1}'),
    });
    expect(r.metadata.result).toEqual({ keys: ['__proto__', 'q'], plain: true, own: { admin: true } });
    const nested = await h.run({ source: run('return [inputs[0].a, inputs.length];'), inputs: [{ a: '\u2028' }] });
    expect(nested.metadata.result).toEqual(['\u2028', 1]);
  });

  it('VMs are independent: globals set by one program are gone in the next', async () => {
    const h = programHarness();
    await h.run({ source: run('globalThis.leak = 42; Object.prototype.p = 1;') });
    const r = await h.run({ source: run('return [typeof globalThis.leak, typeof ({}).p];') });
    expect(r.metadata.result).toEqual(['undefined', 'undefined']);
  });
});
