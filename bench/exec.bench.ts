// The fixed cost of one command: `LocalWorkspace.exec.run({ command: 'echo hi' })` (a tagged
// process group, the reaper on Linux, the scan for processes left running) against a bare
// `child_process.spawn('/bin/bash', ['-c', 'echo hi'])` read to its end: the least any runtime
// pays to run a shell command. Paired and alternated; BENCH_RUNS sets the number of pairs
// (default 200). A second row runs the same command with files to hide (as under `Read(.env)` and
// `Write(secret/**)`: namespaces of its own, a `/proc` of its own, two mounts) against the plain one,
// and a third the same command while the host's environment holds a model key against without.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, pairedMedians } from './util.js';

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
const plain = await pairedMedians(RUNS, ours, bare, 20);
console.log(
  `exec.run('echo hi'): ${fmt(plain.ours, 2)} ms   bare spawn of bash: ${fmt(plain.peer, 2)} ms   ratio ${fmt(plain.ratio, 2)}x (median of ${RUNS} pairs)`,
);

writeFileSync(join(dir, '.env'), 'x');
mkdirSync(join(dir, 'secret'));
const hide = { unreadable: [join(dir, '.env')], unwritable: [join(dir, 'secret')] };
const hidden = async (): Promise<void> => {
  const r = await exec.run({ command: 'echo hi', hide });
  if (r.stdout.head !== 'hi\n') throw new Error(`unexpected output ${JSON.stringify(r.stderr.head)}`);
};
const held = await pairedMedians(RUNS, hidden, ours, 20);
console.log(
  `exec.run('echo hi') with a file and a folder hidden: ${fmt(held.ours, 2)} ms   without: ${fmt(held.peer, 2)} ms   ratio ${fmt(held.ratio, 2)}x (median of ${RUNS} pairs)`,
);

// While the host's environment holds a model key, a command runs apart from the host's processes
// (namespaces and a `/proc` of its own, nothing hidden); the key is set only around our side.
const KEY = 'OPENAI_API_KEY';
const keyBefore = process.env[KEY];
const withKey = async (): Promise<void> => {
  process.env[KEY] = 'sk-bench-not-a-key';
  try {
    await ours();
  } finally {
    delete process.env[KEY];
  }
};
delete process.env[KEY];
const apart = await pairedMedians(RUNS, withKey, ours, 20);
if (keyBefore !== undefined) process.env[KEY] = keyBefore;
console.log(
  `exec.run('echo hi') while the host holds a model key (run apart from the host's processes): ${fmt(apart.ours, 2)} ms   without a key: ${fmt(apart.peer, 2)} ms   ratio ${fmt(apart.ratio, 2)}x (median of ${RUNS} pairs)`,
);
await ws.close();
rmSync(dir, { recursive: true, force: true });
