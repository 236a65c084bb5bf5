// PERS-03/04/08: SIGKILL at random points of `saveSnapshot` with real child processes. After
// every kill the store holds one complete generation (the old or a newer one) and it loads.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { FILLER, generation } from './fixtures/save-loop.mjs';

const script = join(import.meta.dirname, 'fixtures', 'save-loop.mjs');
const KILLS = 100;
const PARALLEL = 5;

async function killOnce(i: number): Promise<{ before: number; after: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-crash-'));
  const store = new FileSessionStore(dir);
  const before = 1000 * (i + 1);
  await store.saveSnapshot(generation(before));
  const child = spawn(process.execPath, [script, dir, String(before + 1)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Half the kills land before the first new save completes, half somewhere in the loop.
  const early = i % 2 === 0;
  if (!early) await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
  await new Promise((r) => setTimeout(r, Math.floor(Math.random() * (early ? 80 : 40))));
  child.kill('SIGKILL');
  await exited;
  const loaded = await store.loadSnapshot('crash');
  expect(loaded, `kill ${i}`).toBeDefined();
  const g = loaded!.updated_at_ms;
  const text = (loaded!.conversation[0] as { text: string }).text;
  // A complete generation: every part agrees on its number.
  expect(text.startsWith(`g${g}:`), `kill ${i}`).toBe(true);
  expect(text.length).toBe(`g${g}:`.length + FILLER + (g % 7) * 1000);
  expect(loaded!.runs[0]!.run_id).toBe(`run-${g}`);
  expect(g).toBeGreaterThanOrEqual(before);
  // Only the published file is visible to listings; a torn temporary file never is.
  expect((await store.listSessions()).map((s) => s.sessionId)).toEqual(['crash']);
  expect(readdirSync(store.folder).filter((n) => !n.startsWith('.tmp-'))).toEqual(['crash.json']);
  return { before, after: g };
}

describe('FileSessionStore under SIGKILL', () => {
  it(`PERS-04: ${KILLS} kills during save: the store always holds the old or a new complete snapshot and always loads`, async () => {
    const results: { before: number; after: number }[] = [];
    for (let i = 0; i < KILLS; i += PARALLEL) {
      results.push(...(await Promise.all(Array.from({ length: PARALLEL }, (_, j) => killOnce(i + j)))));
    }
    expect(results).toHaveLength(KILLS);
    // The kills really interrupted saving at different points: some kept the old generation, some a newer one.
    expect(results.some((r) => r.after === r.before)).toBe(true);
    expect(results.some((r) => r.after > r.before)).toBe(true);
  }, 60_000);
});
