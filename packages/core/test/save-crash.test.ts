// SIGKILL at seeded points of `saveSnapshot` with real child processes. After
// every kill the store holds one complete generation (the old or a newer one) and it loads.
// A3S_CRASH_ROUNDS and A3S_CRASH_SEED replay or widen it; `pnpm soak save-crash` runs 200 kills.
import { describe, expect, it } from 'vitest';
import { crashSettings, inParallel, saveKill } from './crash-kit.js';

const { rounds: KILLS, seed, parallel } = crashSettings(16);

describe('FileSessionStore under SIGKILL', () => {
  it(`PERS-04: ${KILLS} kills during save (seed ${seed}): the store always holds the old or a new complete snapshot and always loads`, async () => {
    const results = await inParallel(KILLS, parallel, (i) => saveKill(seed, i));
    expect(results).toHaveLength(KILLS);
    for (const r of results)
      expect(r.problems, `seed ${seed} kill ${r.round} (${r.phase}, ${r.delayMs} ms)`).toEqual([]);
    // The kills really interrupted saving at different points: some kept the old generation, some a newer one.
    expect(results.some((r) => r.after === r.before)).toBe(true);
    expect(results.some((r) => r.after > r.before)).toBe(true);
  }, 60_000);
});
