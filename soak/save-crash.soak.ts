// SIGKILL during save, 200 kills: a child process saves ever newer 1.5 MB generations of one
// session with the real FileSessionStore and is killed with SIGKILL after a seeded delay: a third
// while it starts, a third inside its first new save, a third inside its save loop. After each kill the store must
// load one complete generation (every part agrees on its number), the old one or a newer one, and
// list nothing but the published file. The test suite runs 16 of these kills
// (packages/core/test/save-crash.test.ts).
//   pnpm exec tsx soak/save-crash.soak.ts [kills=200] [seed] [parallel=4]
import { inParallel, saveKill, type SaveKill } from '../packages/core/test/crash-kit.js';

const KILLS = Number(process.argv[2] ?? 200);
const SEED = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const PARALLEL = Number(process.argv[4] ?? 4);

const t0 = Date.now();
const results = await inParallel(KILLS, PARALLEL, (i) => saveKill(SEED, i));
const seconds = ((Date.now() - t0) / 1000).toFixed(0);

const header = [
  'kill',
  'kills',
  'kept the old generation',
  'loaded a newer one',
  'newest generation reached',
  'temporary file left (killed mid-save)',
  'failed',
];
const row = (name: string, rs: SaveKill[]): (string | number)[] => [
  name,
  rs.length,
  rs.filter((r) => r.after === r.before).length,
  rs.filter((r) => r.after > r.before).length,
  `+${Math.max(0, ...rs.map((r) => r.after - r.before))}`,
  rs.filter((r) => r.torn).length,
  rs.filter((r) => r.problems.length > 0).length,
];
console.log(`SIGKILL during save: ${KILLS} kills, seed ${SEED}, ${PARALLEL} at once, ${seconds} s`);
console.log(
  `| ${header.join(' | ')} |\n|---|${header
    .slice(1)
    .map(() => '---:')
    .join('|')}|`,
);
const phases = [
  row(
    '0-80 ms after spawn (starting)',
    results.filter((r) => r.phase === 'startup'),
  ),
  row(
    '0-20 ms after `start` (first save)',
    results.filter((r) => r.phase === 'first save'),
  ),
  row(
    '0-40 ms after `ready` (save loop)',
    results.filter((r) => r.phase === 'save loop'),
  ),
  row('total', results),
];
for (const r of phases) console.log(`| ${r.join(' | ')} |`);
const failed = results.filter((r) => r.problems.length > 0);
for (const r of failed.slice(0, 10))
  console.log(`kill ${r.round} (${r.phase}, ${r.delayMs} ms): ${r.problems.join('; ')}`);
console.log(
  failed.length === 0
    ? 'PASS: every kill left one complete generation that loads'
    : `FAIL: ${failed.length} kill(s) (replay: pnpm exec tsx soak/save-crash.soak.ts ${KILLS} ${SEED} ${PARALLEL})`,
);
process.exit(failed.length === 0 ? 0 : 1);
