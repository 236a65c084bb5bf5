import { describe, expect, it } from 'vitest';
import { programHarness } from './test-support/program-harness.js';

// `ctx` is built from the host side of the VM (host functions, and the VM's own JSON, String and
// Object.assign taken before the script runs) instead of a script compiled into every VM. These
// pin what a script sees: the same arguments sent, values returned, errors thrown and results
// reported as the script-built `ctx` gave, and nothing a script replaces changes them.

const run = (body: string): string => `async function run(ctx) { ${body} }`;

describe('ctx built by the host', () => {
  it('PROG-03: ctx.tool sends String(name) and the args as JSON; no args sends {}', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const a = await ctx.tool('echo', { text: 'hi', times: 2 });
        const b = await ctx.tool({ toString() { return 'echo'; } }, { text: 'x' });
        const c = await ctx.tool('noop');
        return [a.ok, a.output, b.output, c.ok, c.name];`),
    });
    expect(r.metadata.result).toEqual([true, 'hihi', 'x', true, 'noop']);
  });

  it('PROG-03: args that cannot become JSON throw in the script at the call, catchably', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const out = [];
        const cyclic = {}; cyclic.self = cyclic;
        try { ctx.tool('echo', cyclic); out.push('sent'); } catch (e) { out.push(e.name); }
        try { ctx.tool('echo', { n: 1n }); out.push('sent'); } catch (e) { out.push(e.name); }
        try { ctx.tool({ toString() { throw new RangeError('no name'); } }); out.push('sent'); } catch (e) { out.push(e.message); }
        return out;`),
    });
    expect(r.metadata.result).toEqual(['TypeError', 'TypeError', 'no name']);
    expect(h.state.executions).toHaveLength(0);
  });

  it('PROG-02: a script that replaces JSON, String, Object.assign, Array.isArray and slice changes nothing ctx does', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        String.prototype.slice = () => 'hijacked';
        JSON.stringify = () => '"hijacked"';
        JSON.parse = () => 'hijacked';
        globalThis.String = () => 'hijacked';
        Object.assign = () => ({ hijacked: true });
        Array.isArray = () => true;
        const e = await ctx.tool('echo', { text: 'ok' });
        ctx.log('line', { a: 1 });
        return { output: e.output, long: 'y'.repeat(50) };`),
      limits: { max_output_bytes: 4000 },
    });
    expect(r.ok).toBe(true);
    expect(r.output).toContain('line {"a":1}');
    expect(r.metadata.result).toEqual({ output: 'ok', long: 'y'.repeat(50) });
  });

  it('PROG-02: ctx is frozen and its methods reach only the VM', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        'use strict';
        const out = [Object.isFrozen(ctx), Object.keys(ctx).sort().join(',')];
        try { ctx.tool = () => 1; out.push('replaced'); } catch (e) { out.push(e.name); }
        const F = ctx.tool.constructor;
        out.push(F('return typeof process')());
        return out;`),
    });
    expect(r.metadata.result).toEqual([true, 'glob,grep,log,ls,readFile,tool', 'TypeError', 'undefined']);
  });

  it('PROG-08: ctx.log joins strings as they are and other values as JSON, else String(value); a value that can be neither throws', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const cyclic = { toString() { return 'cyc'; } }; cyclic.self = cyclic;
        ctx.log('s', 1, null, undefined, [1, 'a'], { b: true }, cyclic, Symbol('t'), 2n === 2n);
        ctx.log();
        const bad = { toJSON() { throw new Error('x'); }, toString() { throw new Error('unprintable'); } };
        try { ctx.log('before', bad); return 'logged'; } catch (e) { return e.message; }`),
    });
    expect(r.metadata.result).toBe('unprintable');
    expect(r.output).toContain('log:\ns 1 null undefined [1,"a"] {"b":true} cyc Symbol(t) true\n\n');
  });

  it('PROG-07: results that cannot be JSON say why; a string result is cut without being copied whole', async () => {
    const h = programHarness();
    const big = await h.run({ source: run(`return 'z'.repeat(300000);`), limits: { max_output_bytes: 1000 } });
    expect(big.metadata.program).toMatchObject({ result_kind: 'string', result_chars: 300000, truncated: true });
    expect(big.output.length).toBeLessThan(2000);
    const bigint = await h.run({ source: run('return { n: 1n };') });
    expect(bigint.ok).toBe(true);
    expect(bigint.output).toMatch(/not JSON-serialisable.*BigInt/i);
    const thrown = await h.run({ source: run('return { toJSON() { throw 0; } };') });
    expect(thrown.output).toMatch(/not JSON-serialisable: 0/);
    const hostile = await h.run({
      source: run(`return { toJSON() { throw { get message() { throw new Error('again'); } }; } };`),
    });
    expect(hostile.ok).toBe(true);
    expect(hostile.output).toMatch(/not JSON-serialisable/);
    const fn = await h.run({ source: run('return () => 1;') });
    expect(fn.output).toContain('(run returned undefined)');
  });

  it('PROG-07: arguments whose toJSON never returns, or call ctx again, stay under the deadline and the limits', async () => {
    const h = programHarness();
    const loop = await h.run({
      source: run(`await ctx.tool('echo', { toJSON() { for (;;) {} } }); return 'sent';`),
      limits: { timeout_ms: 200 },
    });
    expect(loop.error?.code).toBe('PROGRAM_TIMEOUT');
    const reentrant = await h.run({
      source: run(`
        const inner = [];
        const args = { get text() { inner.push(ctx.tool('echo', { text: 'inner' })); return 'outer'; } };
        const outer = await ctx.tool('echo', args);
        return [outer.output, (await inner[0]).output];`),
    });
    expect(reentrant.metadata.result).toEqual(['outer', 'inner']);
    const next = await h.run({ source: run(`return (await ctx.tool('echo', { text: 'after' })).output;`) });
    expect(next.metadata.result).toBe('after');
  });

  it('PROG-02: setters and replacements a script puts on Promise, Reflect, Object.prototype and Array.prototype change nothing ctx sends or returns', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        // Index 0 is left alone: the engine's own JSON.stringify keeps its stack in an array.
        let seen = '';
        for (const k of ['1', '2', 'length', 'pattern', 'name', 'args', 'text']) {
          Object.defineProperty(Object.prototype, k, { set(v) { seen += k; }, configurable: true });
        }
        Object.defineProperty(Array.prototype, '1', { set(v) { seen += 'a1'; }, configurable: true });
        Array.prototype.join = () => 'hijacked';
        Reflect.apply = () => 'hijacked';
        Object.create = () => ({});
        Promise.prototype.then = function () { throw new Error('hijacked then'); };
        globalThis.Promise = function () { throw new Error('hijacked Promise'); };
        const both = [ctx.tool('echo', { text: 'a' }), ctx.tool('echo', { text: 'b' })];
        const a = await both[0];
        const b = await both[1];
        return [a.output, b.output, seen];`),
    });
    expect(r.metadata.result).toEqual(['a', 'b', '']);
  });

  it('PROG-01: run may be declared as a function, var, let or const; a script without one is refused', async () => {
    const h = programHarness();
    for (const decl of [
      'async function run(ctx, inputs) { return inputs.n + 1; }',
      'var run = async (ctx, inputs) => inputs.n + 1;',
      'let run = async (ctx, inputs) => inputs.n + 1;',
      'const run = async function (ctx, inputs) { return inputs.n + 1; };',
    ]) {
      const r = await h.run({ source: decl, inputs: { n: 1 } });
      expect(r.metadata.result, decl).toBe(2);
    }
    const none = await h.run({ source: 'const go = async () => 1;' });
    expect(none.ok).toBe(false);
    expect(none.output).toMatch(/must define `async function run/);
  });

  it('PROG-03: a call the tool rejects reaches the script as an Error with its name and code; other calls still settle', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const out = [];
        try { await ctx.tool('not_allowed_here', {}); } catch (e) { out.push(e instanceof Error, e.name, e.code); }
        out.push((await ctx.tool('echo', { text: 'after' })).output);
        return out;`),
    });
    expect(r.metadata.result).toEqual([true, 'ToolNotAllowedError', 'TOOL_NOT_ALLOWED', 'after']);
  });

  it('PROG-03: a member ctx lacks throws a TypeError naming it and what ctx has, with a hint, instead of "not a function"', async () => {
    const h = programHarness();
    const failed = await h.run({ source: run(`return ctx.bash('echo hi');`) });
    expect(failed.ok).toBe(false);
    expect(failed.output).toMatch(
      /TypeError.*ctx\.bash is not a member of ctx \(ctx has: tool, grep, glob, readFile, ls, log\); run a command with ctx\.tool\('bash', \{ command: '\.\.\.' \}\)/,
    );
    expect(failed.output).not.toMatch(/not a function/);
    const r = await h.run({
      source: run(`
        const out = [];
        for (const name of ['readfile', 'write']) {
          try { ctx[name]; out.push('no throw'); } catch (e) { out.push(e.name + ': ' + e.message); }
        }
        // What engines and scripts read from any object still works: await, JSON, keys, the prototype.
        const self = await Promise.resolve(ctx);
        out.push(self === ctx, JSON.stringify(ctx), Object.keys(ctx).join(), Object.isFrozen(ctx));
        out.push(typeof ctx.hasOwnProperty, 'bash' in ctx, typeof ctx[Symbol.iterator]);
        return out;`),
    });
    expect(r.metadata.result).toEqual([
      "TypeError: ctx.readfile is not a member of ctx (ctx has: tool, grep, glob, readFile, ls, log); did you mean 'readFile'?",
      'TypeError: ctx.write is not a member of ctx (ctx has: tool, grep, glob, readFile, ls, log); call a tool by its name with ctx.tool("write", args)',
      true,
      '{}',
      'tool,grep,glob,readFile,ls,log',
      true,
      'function',
      false,
      'undefined',
    ]);
  });
});
