// Crash and resume, 200 rounds: a child process runs a session (6 model turns, 12 side-effecting
// tool calls) and is killed with SIGKILL at a seeded point: after `ready`, after the N-th tool
// execution, or after the run finished, either by itself a few event-loop turns later or by the
// parent after a short timer. Another process then resumes the run from the fact log. A failure is
// a log that does not parse, a resume that does not finish, a call with a recorded result that runs
// again, or a duplicate result. The test suite runs 12 of these rounds (packages/core/test/processes.test.ts).
//   pnpm exec tsx soak/crash-resume.soak.ts [rounds=200] [seed] [parallel=4]
import { crashRound, inParallel, KILL_POINTS, killPlans, type CrashRound } from '../packages/core/test/crash-kit.js';

const ROUNDS = Number(process.argv[2] ?? 200);
const SEED = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const PARALLEL = Number(process.argv[4] ?? 4);

const t0 = Date.now();
const plans = killPlans(SEED, ROUNDS);
const results = await inParallel(ROUNDS, PARALLEL, (i) => crashRound(plans[i]!));
const seconds = ((Date.now() - t0) / 1000).toFixed(0);

const header = [
  'kill point',
  'rounds',
  'by itself',
  'by parent',
  'killed mid-run',
  'results logged at kill',
  'unlogged calls run again',
  'failed',
];
const rows: (string | number)[][] = [];
const row = (name: string, rs: CrashRound[]): (string | number)[] => [
  name,
  rs.length,
  rs.filter((r) => r.plan.by === 'self').length,
  rs.filter((r) => r.plan.by === 'parent').length,
  rs.filter((r) => r.killedMidRun).length,
  rs.reduce((n, r) => n + r.recorded, 0),
  rs.reduce((n, r) => n + r.reran, 0),
  rs.filter((r) => r.problems.length > 0).length,
];
for (const point of KILL_POINTS)
  rows.push(
    row(
      point,
      results.filter((r) => r.plan.point === point),
    ),
  );
rows.push(row('total', results));

console.log(`crash and resume: ${ROUNDS} rounds, seed ${SEED}, ${PARALLEL} at once, ${seconds} s`);
console.log(
  `| ${header.join(' | ')} |\n|---|${header
    .slice(1)
    .map(() => '---:')
    .join('|')}|`,
);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const failed = results.map((r, i) => ({ i, r })).filter(({ r }) => r.problems.length > 0);
for (const { i, r } of failed.slice(0, 10))
  console.log(`round ${i} ${JSON.stringify(r.plan)}: ${r.problems.join('; ')}`);
console.log(
  failed.length === 0
    ? 'PASS: every log parsed, every resume finished, no recorded call ran twice'
    : `FAIL: ${failed.length} round(s) (replay: pnpm exec tsx soak/crash-resume.soak.ts ${ROUNDS} ${SEED} ${PARALLEL})`,
);
process.exit(failed.length === 0 ? 0 : 1);
