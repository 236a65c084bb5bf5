import { describe, expect, it } from 'vitest';
import { programHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;

describe('program sandbox escape suite (PROG-02, PTC-01/02)', () => {
  it('PTC-02: require, process, fetch, timers, import() and Node globals are absent', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const names = ['require', 'process', 'fetch', 'setTimeout', 'setInterval', 'Buffer', 'module', 'exports', '__dirname', 'XMLHttpRequest', 'WebSocket', 'Deno', 'Bun', 'std', 'os'];
        const present = names.filter((n) => typeof globalThis[n] !== 'undefined');
        let dyn;
        try { await import('fs'); dyn = 'imported'; } catch (e) { dyn = e.name + ': ' + e.message; }
        let req;
        try { require('child_process'); req = 'required'; } catch (e) { req = e.name; }
        return { present, dyn, req, keys: Object.getOwnPropertyNames(globalThis).filter((k) => /host|a3s|log/i.test(k)) };`),
    });
    expect(r.metadata.result).toEqual({
      present: [],
      dyn: "ReferenceError: could not load module 'fs'",
      req: 'ReferenceError',
      keys: [],
    });
  });

  it('PTC-02: static imports of node: modules fail at evaluation', async () => {
    const h = programHarness();
    const r = await h.run({
      source:
        "import fs from 'node:fs';\nexport default async function run() { return fs.readFileSync('/etc/passwd', 'utf8'); }",
    });
    expect(r.ok).toBe(false);
    expect(r.error?.code).toMatch(/^PROGRAM_(RUNTIME|SYNTAX)$/);
    expect(r.output).toMatch(/could not load module/);
  });

  it('PROG-02: globalThis tricks (Function constructor, eval, constructor chains) reach only the VM', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const g1 = Function('return this')();
        const g2 = (0, eval)('globalThis');
        const g3 = ctx.tool.constructor('return typeof process')();
        const g4 = (async () => {}).constructor('return typeof require')();
        return { same: g1 === globalThis && g2 === globalThis, g3, g4: await g4, frozen: Object.isFrozen(ctx) };`),
    });
    expect(r.metadata.result).toEqual({ same: true, g3: 'undefined', g4: 'undefined', frozen: true });
  });

  it('PROG-02: prototype pollution inside the VM and through tool args does not reach the host', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        Object.prototype.polluted = 'yes';
        Array.prototype.push = function () { return 'hijacked'; };
        JSON.parse = () => ({ hijacked: true });
        const args = JSON.parse('{}');
        const res = await ctx.tool('echo', { text: 'x', ['__proto__']: { polluted: 'via-args' }, constructor: { prototype: { polluted: 'c' } } });
        return 'done';`),
    });
    // The echo tool is strict: the smuggled keys make the call invalid; nothing on the host changed.
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([].push(1 as never)).toBe(1);
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    const direct = await h.run({
      source: run(
        `return (await ctx.tool('nest', { tool: 'echo', args: JSON.parse('{"text":"t","__proto__":{"polluted":1}}') })).output;`,
      ),
    });
    expect(direct.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('PROG-07: an infinite loop is stopped at the deadline (PROGRAM_TIMEOUT) and the host keeps running', async () => {
    const h = programHarness();
    const t0 = Date.now();
    const r = await h.run({ source: run('while (true) {}'), limits: { timeout_ms: 150 } });
    expect(r.error?.code).toBe('PROGRAM_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(1500);
    const catching = await h.run({
      source: run('for (;;) { try { while (true) {} } catch (e) { /* cannot swallow */ } }'),
      limits: { timeout_ms: 100 },
    });
    expect(catching.error?.code).toBe('PROGRAM_TIMEOUT');
    expect((await h.run({ source: run('return 1 + 1;') })).output).toBe('2');
  });

  it('PROG-07: a ctx.tool call still running at the deadline is cancelled with the program, not left running', async () => {
    const h = programHarness();
    const t0 = Date.now();
    const r = await h.run({
      source: run("await ctx.tool('sleep', { ms: 10000 }); return 'slept';"),
      limits: { timeout_ms: 200 },
    });
    expect(r.error?.code).toBe('PROGRAM_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(5000);
    for (let i = 0; i < 50 && h.state.running > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.state.executions.map((e) => e.tool)).toEqual(['sleep']);
    expect(h.state.running).toBe(0);
  });

  it('PROG-07: a memory bomb stops with PROGRAM_MEMORY_LIMIT', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run("const a = []; for (;;) a.push({ i: a.length, s: 'x' + a.length });"),
      limits: { memory_limit_bytes: 8 * 1024 * 1024, timeout_ms: 10_000 },
    });
    expect(r.error?.code).toBe('PROGRAM_MEMORY_LIMIT');
    const big = await h.run({
      source: run('return new ArrayBuffer(256 * 1024 * 1024).byteLength;'),
      limits: { memory_limit_bytes: 4 * 1024 * 1024 },
    });
    expect(big.error?.code).toBe('PROGRAM_MEMORY_LIMIT');
    expect((await h.run({ source: run('return [1,2,3].map((x) => x * 2);') })).metadata.result).toEqual([2, 4, 6]);
  });

  it('deep recursion stops with PROGRAM_STACK_LIMIT naming the line', async () => {
    const h = programHarness();
    const r = await h.run({
      source: 'function down(n) {\n  return down(n + 1) + 1;\n}\nasync function run() {\n  return down(0);\n}\n',
    });
    expect(r.error?.code).toBe('PROGRAM_STACK_LIMIT');
    expect(r.error).toMatchObject({ line: 2 });
  });

  it('PROG-07: a huge return value is cut at max_output_bytes and never copied out whole', async () => {
    const h = programHarness();
    const before = process.memoryUsage().rss;
    const r = await h.run({
      source: run("return 'y'.repeat(20 * 1024 * 1024);"),
      limits: { max_output_bytes: 4096, memory_limit_bytes: 128 * 1024 * 1024 },
    });
    expect(r.ok).toBe(true);
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(4096);
    expect(r.output).toMatch(/\[output cut at limits\.max_output_bytes=4096; the result was 20971520 characters/);
    expect(r.metadata.result).toBeNull();
    expect(r.metadata.program).toMatchObject({ truncated: true, result_kept: false, result_chars: 20 * 1024 * 1024 });
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const obj = await h.run({
      source: run('return Array.from({ length: 5000 }, (_, i) => ({ i, pad: "p".repeat(20) }));'),
      limits: { max_output_bytes: 1024 },
    });
    expect(obj.metadata.program).toMatchObject({ truncated: true, result_kept: false });
    expect(Buffer.byteLength(obj.output)).toBeLessThanOrEqual(1024);
  });

  it('PROG-07: getters and toJSON on the result run under the deadline too', async () => {
    const h = programHarness();
    const r = await h.run({ source: run('return { toJSON() { for (;;) {} } };'), limits: { timeout_ms: 100 } });
    expect(r.error?.code).toBe('PROGRAM_TIMEOUT');
    const cyc = await h.run({ source: run('const a = {}; a.a = a; return a;') });
    expect(cyc.ok).toBe(true);
    expect(cyc.output).toMatch(/not JSON-serialisable/);
  });

  it('odd thrown values (a BigInt, inside an object too, a rejected promise) are typed program errors naming them', async () => {
    const h = programHarness();
    for (const [body, shown] of [
      ['throw 10n;', '10n'],
      ['return Promise.reject(10n);', '10n'],
      ['throw { code: 7n, list: [1n] };', 'uncaught thrown value'],
    ] as const) {
      const r = await h.run({ source: run(body) });
      expect(r.error?.code, body).toBe('PROGRAM_RUNTIME');
      expect(r.output, body).toContain(shown);
      expect(r.output, body).not.toMatch(/serialize a BigInt/);
    }
  });

  it('a promise that can never settle is reported, not awaited forever', async () => {
    const h = programHarness();
    const r = await h.run({ source: run('await new Promise(() => {});') });
    expect(r.error?.code).toBe('PROGRAM_RUNTIME');
    expect(r.output).toMatch(/can never settle/);
  });
});
