// The kernel's look at git's store before a command held to read rules (`heldGitStore`: does git
// hold a file the rules cover?), on this repository's own history. First row: the answer kept
// (the usual case, references unchanged since the last command) against one `stat`, the least
// any check of the repository costs. Second row: a fresh answer (a new pattern each time, so
// git is asked: one path-limited walk of every ref and reflog, the index) against one spawn of
// `git rev-parse HEAD`, the least any question to git costs. Paired and alternated; BENCH_RUNS
// sets the pairs (default 30).
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { heldGitStore } from '../packages/core/src/invoker/git-store.js';
import { fmt, pairedMedians } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const root = join(import.meta.dirname, '..');

const kept = await pairedMedians(
  RUNS * 10,
  () => heldGitStore(root, ['.env'], []),
  () => stat(join(root, '.git', 'HEAD')),
);
console.log(
  `heldGitStore, answer kept: ${fmt(kept.ours * 1000, 0)} µs   one stat: ${fmt(kept.peer * 1000, 0)} µs (median of ${RUNS * 10} pairs)`,
);

let n = 0;
const commits = await new Promise<string>((done) =>
  execFile('git', ['rev-list', '--count', '--all'], { cwd: root }, (_e, out) => done(String(out).trim())),
);
const fresh = await pairedMedians(
  RUNS,
  () => heldGitStore(root, [`.env-bench-${n++}`], []),
  () => new Promise((done) => execFile('git', ['rev-parse', 'HEAD'], { cwd: root }, done)),
);
console.log(
  `heldGitStore, fresh answer (${commits} commits): ${fmt(fresh.ours, 1)} ms   git rev-parse HEAD: ${fmt(fresh.peer, 1)} ms   ratio ${fmt(fresh.ratio, 1)}x (median of ${RUNS} pairs)`,
);
