// Small timing helpers shared by the benchmarks.
import { performance } from 'node:perf_hooks';

/** Milliseconds taken by `fn`. */
export async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** Forces a collection when the process runs with --expose-gc. */
export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Formats a number with a fixed number of decimals. */
export const fmt = (n: number, d = 1): string => n.toFixed(d);

/** Medians of `runs` paired timings of `ours` and `peer`, alternating which goes first, after `warm` of each. */
export async function pairedMedians(
  runs: number,
  ours: () => unknown | Promise<unknown>,
  peer: () => unknown | Promise<unknown>,
  warm = 3,
): Promise<{ ours: number; peer: number; ratio: number }> {
  for (let i = 0; i < warm; i++) {
    await ours();
    await peer();
  }
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < runs; i++) {
    const first = await time(i % 2 === 0 ? ours : peer);
    const second = await time(i % 2 === 0 ? peer : ours);
    const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
    a.push(x);
    b.push(y);
    r.push(x / y);
  }
  return { ours: median(a), peer: median(b), ratio: median(r) };
}
