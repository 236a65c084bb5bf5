// Start-up of whole processes, each paired with `node -e 0` in the same run (A B A B …, median of
// the runs and of the pair-by-pair ratios): `a3s --help`, `a3s --version`, `import('@a3s-code/core')`,
// `import('@a3s-code/effect')`, and `a3s run` with a one-turn scripted model on a scratch folder,
// with no tool call and with one `read` call.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fmt, median } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const root = join(import.meta.dirname, '..');
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
const coreEntry = join(root, 'packages', 'core', 'dist', 'index.js');
const effectEntry = join(root, 'packages', 'effect', 'dist', 'index.js');

const scratch = mkdtempSync(join(tmpdir(), 'a3s-bench-start-'));
const script = join(scratch, 'model.json');
writeFileSync(script, JSON.stringify({ turns: [{ text: 'Nothing to change.' }] }));
const readScript = join(scratch, 'read-model.json');
writeFileSync(
  readScript,
  JSON.stringify({
    turns: [
      { text: 'Reading.', tool_calls: [{ id: 'c1', name: 'read', args: { file_path: 'model.json' } }] },
      { text: 'Done.' },
    ],
  }),
);

function wall(args: readonly string[], cwd = root): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 400)}`);
  return ms;
}

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly goal: string;
  readonly cwd?: string;
}

const cases: Case[] = [
  { name: 'a3s --help', args: [bin, '--help'], goal: '≤ 300 ms and ≤ 2.5×' },
  { name: 'a3s --version', args: [bin, '--version'], goal: '≤ 2.5×' },
  {
    name: "import('@a3s-code/effect')",
    args: ['--input-type=module', '-e', `await import(${JSON.stringify(effectEntry)})`],
    goal: '—',
  },
  {
    name: "import('@a3s-code/core')",
    args: ['--input-type=module', '-e', `await import(${JSON.stringify(coreEntry)})`],
    goal: '≤ 2×',
  },
  {
    name: 'a3s run (one-turn scripted model)',
    args: [bin, 'run', '--model', `scripted:${script}`, '--cwd', scratch, 'say hi'],
    goal: '≤ 3×',
  },
  {
    name: 'a3s run (scripted, one `read` call)',
    args: [bin, 'run', '--model', `scripted:${readScript}`, '--cwd', scratch, 'read it'],
    goal: '—',
  },
];

console.log(`start-up, ${RUNS} paired runs each (median), Node ${process.version}; peer: node -e 0 in the same run`);
console.log('| command | median | node -e 0 | ratio (median of pairs) | goal |');
console.log('|---|---:|---:|---:|---|');
for (const c of cases) {
  wall(c.args, c.cwd);
  wall(['-e', '0']);
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const x = wall(c.args, c.cwd);
    const y = wall(['-e', '0']);
    a.push(x);
    b.push(y);
    ratios.push(x / y);
  }
  console.log(
    `| ${c.name} | ${fmt(median(a), 0)} ms | ${fmt(median(b), 0)} ms | ${fmt(median(ratios), 2)}× | ${c.goal} |`,
  );
}
rmSync(scratch, { recursive: true, force: true });
