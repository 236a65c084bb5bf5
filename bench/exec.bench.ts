// The fixed cost of one command: `LocalWorkspace.exec.run({ command: 'echo hi' })` (a tagged
// process group, the reaper on Linux, the scan for processes left running) against a bare
// `child_process.spawn('/bin/bash', ['-c', 'echo hi'])` read to its end: the least any runtime
// pays to run a shell command. Paired and alternated; BENCH_RUNS sets the number of pairs
// (default 200). A second row runs the same command with files to hide (as under `Read(.env)` and
// `Write(secret/**)`: namespaces of its own, a `/proc` of its own, two mounts) against the plain one.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, median, time } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const SHELL = '/bin/bash';

function bare(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', 'echo hi'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-exec-'));
const ws = new LocalWorkspace({ root: dir });
const exec = ws.exec!;
const ours = async (): Promise<void> => {
  const r = await exec.run({ command: 'echo hi' });
  if (r.stdout.head !== 'hi\n') throw new Error(`unexpected output ${JSON.stringify(r.stdout.head)}`);
};
for (let i = 0; i < 20; i++) {
  await ours();
  await bare();
}
const a: number[] = [];
const b: number[] = [];
const r: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const first = await time(i % 2 === 0 ? ours : bare);
  const second = await time(i % 2 === 0 ? bare : ours);
  const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
  a.push(x);
  b.push(y);
  r.push(x / y);
}
console.log(
  `exec.run('echo hi'): ${fmt(median(a), 2)} ms   bare spawn of bash: ${fmt(median(b), 2)} ms   ratio ${fmt(median(r), 2)}x (median of ${RUNS} pairs)`,
);

writeFileSync(join(dir, '.env'), 'x');
mkdirSync(join(dir, 'secret'));
const hide = { unreadable: [join(dir, '.env')], unwritable: [join(dir, 'secret')] };
const hidden = async (): Promise<void> => {
  const r = await exec.run({ command: 'echo hi', hide });
  if (r.stdout.head !== 'hi\n') throw new Error(`unexpected output ${JSON.stringify(r.stderr.head)}`);
};
for (let i = 0; i < 20; i++) await hidden();
const h: number[] = [];
const p: number[] = [];
const hr: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const first = await time(i % 2 === 0 ? hidden : ours);
  const second = await time(i % 2 === 0 ? ours : hidden);
  const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
  h.push(x);
  p.push(y);
  hr.push(x / y);
}
console.log(
  `exec.run('echo hi') with a file and a folder hidden: ${fmt(median(h), 2)} ms   without: ${fmt(median(p), 2)} ms   ratio ${fmt(median(hr), 2)}x (median of ${RUNS} pairs)`,
);
await ws.close();
rmSync(dir, { recursive: true, force: true });
