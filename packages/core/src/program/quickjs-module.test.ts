import { describe, expect, it } from 'vitest';
import { acquireQuickJs, quickJsMaxBytes, releaseQuickJs } from './quickjs-module.js';

const MiB = 1024 * 1024;

/** Allocates 1 MiB Uint8Arrays until `max` MiB or the first failure; returns how many it kept and the error, if any. */
async function fill(
  limitBytes: number,
  maxMiB: number,
): Promise<{ kept: number; error: string | null; exhausted: boolean; memory: number }> {
  const q = await acquireQuickJs(limitBytes);
  const rt = q.module.newRuntime();
  rt.setMemoryLimit(limitBytes);
  const vm = rt.newContext();
  const r = vm.evalCode(
    `globalThis.kept = []; let error; try { for (let i = 0; i < ${maxMiB}; i++) kept.push(new Uint8Array(${MiB})); } catch (e) { error = String(e); } [kept.length, error ?? null]`,
  );
  const handle = vm.unwrapResult(r);
  const [kept, error] = vm.dump(handle) as [number, string | null];
  handle.dispose();
  const out = { kept, error, exhausted: q.exhausted(), memory: q.memoryBytes() };
  vm.dispose();
  rt.dispose();
  releaseQuickJs(q, true);
  return out;
}

describe('bounded QuickJS memory (PROG-07)', () => {
  for (const limitMiB of [8, 64]) {
    it(`PROG-07: with memory_limit_bytes = ${limitMiB} MiB a script keeps about that much in typed arrays, and no more`, async () => {
      const limit = limitMiB * MiB;
      const under = await fill(limit, limitMiB - 1);
      expect(under).toMatchObject({ kept: limitMiB - 1, error: null, exhausted: false });
      const over = await fill(limit, 4 * limitMiB);
      expect(over.error).toMatch(/out of memory/);
      expect(over.exhausted).toBe(true);
      expect(over.kept).toBeGreaterThanOrEqual(limitMiB);
      // The limit plus the headroom left below the filler and Emscripten's growth steps.
      expect(over.kept).toBeLessThanOrEqual(Math.ceil(limitMiB * 1.05) + 3);
      expect(over.memory).toBeLessThanOrEqual(quickJsMaxBytes(limit));
    });
  }

  it('PROG-07: a module whose memory grew or ran out is not handed out again', async () => {
    const a = await acquireQuickJs(8 * MiB);
    releaseQuickJs(a, true);
    const b = await acquireQuickJs(8 * MiB);
    expect(b).toBe(a);
    releaseQuickJs(b, true);
    expect(await acquireQuickJs(16 * MiB)).not.toBe(a);
    await fill(8 * MiB, 64);
    const c = await acquireQuickJs(8 * MiB);
    expect(c.exhausted()).toBe(false);
    expect(c.memoryBytes()).toBeLessThanOrEqual(16 * MiB);
  });
});
