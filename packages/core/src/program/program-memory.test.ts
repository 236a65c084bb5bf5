import { describe, expect, it } from 'vitest';
import { programHarness, type ProgramHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;
const MiB = 1024 * 1024;
const TIMEOUT_MS = 20_000;
const limits = { memory_limit_bytes: 8 * MiB, timeout_ms: TIMEOUT_MS };

/** Runs `body` under an 8 MiB limit and a 20 s deadline; returns the error code and how long the call took. */
async function timed(
  h: ProgramHarness,
  body: string,
): Promise<{ body: string; code: string | undefined; fast: boolean }> {
  const t0 = Date.now();
  const r = await h.run({ source: run(body), limits });
  // The call includes starting a worker when the previous one was ended; the bound still sits far
  // below the deadline that a script the limit does not stop would run into.
  return { body, code: r.error?.code, fast: Date.now() - t0 < TIMEOUT_MS / 2 };
}

describe('program memory limit (PROG-07)', () => {
  it('PROG-07: 100 MB of Uint8Arrays under an 8 MiB limit fails with PROGRAM_MEMORY_LIMIT, and host memory grows by less than the limit plus a small constant', async () => {
    const h = programHarness();
    // Two warm workers: the failing one is ended, and the idle one means no spare starts while RSS is sampled.
    await Promise.all([h.run({ source: run('return 1;'), limits }), h.run({ source: run('return 2;'), limits })]);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    try {
      const r = await h.run({
        source: run('const a = []; for (let i = 0; i < 100; i++) a.push(new Uint8Array(1e6)); return a.length;'),
        limits,
      });
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(r.error?.code).toBe('PROGRAM_MEMORY_LIMIT');
      expect(r.output).toMatch(/limits\.memory_limit_bytes=8388608 \(8 MiB\)/);
      expect(r.output).toMatch(/raise limits\.memory_limit_bytes/);
    } finally {
      clearInterval(sample);
    }
    // The program's wasm memory tops out near 27 MiB for an 8 MiB limit (the build's 16 MiB of
    // static data and stack included); without the bound the same script takes over 100 MB.
    expect(peak - before).toBeLessThan(64 * MiB);
  });

  it('PROG-07: unbounded push loops stop with PROGRAM_MEMORY_LIMIT long before the deadline', async () => {
    const h = programHarness();
    for (const body of [
      'const a = []; for (;;) a.push(a.length);',
      "const a = []; for (;;) a.push('x'.repeat(1000) + a.length);",
      'const a = []; for (;;) a.push({ i: a.length, s: String(a.length) });',
    ]) {
      expect(await timed(h, body)).toEqual({ body, code: 'PROGRAM_MEMORY_LIMIT', fast: true });
    }
  });

  it('PROG-07: string concatenation loops stop with PROGRAM_MEMORY_LIMIT', async () => {
    const h = programHarness();
    for (const body of [
      "let s = ''; for (;;) s += 'abcdefghijklmnopqrstuvwxyz' + s.length;",
      "let s = 'x'; for (;;) s = s.repeat(2);",
    ]) {
      expect(await timed(h, body)).toEqual({ body, code: 'PROGRAM_MEMORY_LIMIT', fast: true });
    }
  });

  it('PROG-07: catching "out of memory" does not get a script past the limit: it stops with PROGRAM_MEMORY_LIMIT, not at the deadline', async () => {
    const h = programHarness();
    for (const body of [
      'const a = []; for (;;) { try { a.push(new Uint8Array(1e6)); } catch (e) { a.length = 0; } }',
      "let s = ''; try { for (;;) s += 'z'.repeat(4096); } catch (e) { s = ''; } return 'swallowed';",
    ]) {
      expect(await timed(h, body)).toEqual({ body, code: 'PROGRAM_MEMORY_LIMIT', fast: true });
    }
  });

  it('PROG-07: a script just under the limit succeeds, and the next program after a breach runs normally', async () => {
    const h = programHarness();
    const under = await h.run({
      source: run(
        `const a = []; for (let i = 0; i < 6; i++) a.push(new Uint8Array(${MiB}).fill(i)); const s = 'q'.repeat(${MiB / 2}); return a.reduce((n, b) => n + b.length, 0) + s.length;`,
      ),
      limits,
    });
    expect(under.output).toBe(String(6.5 * MiB));
    expect((await timed(h, 'const a = []; for (;;) a.push(new Uint8Array(1e6));')).code).toBe('PROGRAM_MEMORY_LIMIT');
    const next = await h.run({
      source: run(
        `return (await ctx.tool('echo', { text: 'after' })).output + ' ' + new Uint8Array(${4 * MiB}).length;`,
      ),
      limits,
    });
    expect(next.output).toBe(`after ${4 * MiB}`);
    const again = await h.run({
      source: run(`const a = []; for (let i = 0; i < 6; i++) a.push(new Uint8Array(${MiB})); return 'again';`),
      limits,
    });
    expect(again.output).toBe('again');
  });

  it('PROG-07: ctx calls made while the memory is full stop with PROGRAM_MEMORY_LIMIT, and the next program runs', async () => {
    const h = programHarness();
    for (const call of [
      `ctx.tool('echo', { text: 'x'.repeat(2000) })`,
      `ctx.log('filled', { n: 1 })`,
      `ctx.grep('p', { glob: '*.ts' })`,
    ]) {
      const r = await timed(
        h,
        `const a = []; try { for (;;) a.push(new Uint8Array(1e5)); } catch (e) {} for (let i = 0; i < 50; i++) { try { await ${call}; } catch (e) {} } return a.length;`,
      );
      expect([call, r.code, r.fast]).toEqual([call, 'PROGRAM_MEMORY_LIMIT', true]);
    }
    const next = await h.run({ source: run(`return (await ctx.tool('echo', { text: 'ok' })).output;`), limits });
    expect(next.output).toBe('ok');
  });
});
