/**
 * The cost of the `git` tool's process work per command: `LocalGit.run(['status'])` (a listing of
 * the configuration and a `rev-parse` side by side, kept while the files they were read from stay
 * the same (`git-listing-cache.ts`), then git in a mount namespace of its own with the listed
 * configuration pinned, see `git-pin.ts`) against a plain `git status` child process,
 * paired and alternated, on a small repository. Run after a build: `pnpm exec tsx bench/run.ts git-pin`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, pairedMedians } from './util.js';

const run = promisify(execFile);

/** Runs the benchmark and prints its figures. */
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-git-'));
  try {
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `f${i}.txt`), `line ${i}\n`);
    execFileSync('git', ['-C', dir, 'add', '.']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init']);
    writeFileSync(join(dir, 'f1.txt'), 'changed\n');
    const git = new LocalWorkspace({ root: dir }).git;
    if (git === undefined) throw new Error('no git service');
    const runs = Number(process.env.BENCH_RUNS ?? 0) || 60;
    const r = await pairedMedians(
      runs,
      async () => {
        const res = await git.run(['status', '--porcelain']);
        if (res.exitCode !== 0) throw new Error(res.stderr.head);
      },
      () => run('git', ['status', '--porcelain'], { cwd: dir }),
    );
    console.log(`git tool command vs a plain git child process (${runs} pairs, medians)`);
    console.log(`  LocalGit.run(['status'])   ${fmt(r.ours, 1)} ms`);
    console.log(`  git status (execFile)      ${fmt(r.peer, 1)} ms`);
    console.log(`  ratio ${fmt(r.ratio, 2)}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
