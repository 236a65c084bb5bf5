#!/usr/bin/env node
// Entry point of the README's two commands (`npm run demo`, `npm test`) and of `npm run bench`
// and `npm run soak`.
// It needs only Node.js 20 and npm: it finds the pinned pnpm (installing it into `.tools/`
// when the machine has no matching one), installs the workspace from the lockfile, builds every
// package with turbo, then runs the requested job.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const job = process.argv[2];
const jobs = ['demo', 'test', 'bench', 'soak'];
if (!jobs.includes(job)) {
  console.error(`bootstrap: unknown job '${job ?? ''}'; expected one of ${jobs.join(', ')}`);
  process.exit(2);
}

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function must(cmd, args, opts) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`bootstrap: '${cmd} ${args.join(' ')}' failed with exit code ${status}`);
    process.exit(status);
  }
}

function pnpmVersion(bin) {
  const r = spawnSync(bin, ['--version'], { env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// Put a pnpm of the pinned version first on PATH (turbo needs `pnpm` on PATH as well).
function ensurePnpm() {
  if (pnpmVersion('pnpm') === pinned) return;
  const tools = join(root, '.tools');
  const bin = join(tools, 'node_modules', '.bin');
  if (pnpmVersion(join(bin, 'pnpm')) !== pinned) {
    rmSync(tools, { recursive: true, force: true });
    mkdirSync(tools, { recursive: true });
    console.log(`bootstrap: installing pnpm@${pinned} into .tools/`);
    must('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', tools, `pnpm@${pinned}`]);
  }
  env.PATH = `${bin}${process.platform === 'win32' ? ';' : ':'}${env.PATH ?? ''}`;
}

// One program checks every package, test, benchmark and script (one load of the Node typings
// instead of one per package); the viewer has its own, for its DOM and worker globals. Both run
// with the native TypeScript compiler (`tsgo`, about 4× faster than `tsc` here; the packages' own
// builds still compile and emit declarations with `tsc`), beside the test suite: their output is
// printed, and a failure counted, once the suite is done.
function typecheck() {
  const tsgo = join(root, 'node_modules', '@typescript', 'native-preview', 'bin', 'tsgo');
  const projects = ['tsconfig.json', join('apps', 'viewer', 'tsconfig.json')];
  const runs = projects.map(
    (project) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [tsgo, '-p', project], {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (e) => resolve({ project, code: 1, output: `${output}${e.message}\n` }));
        child.on('close', (code) => resolve({ project, code: code ?? 1, output }));
      }),
  );
  return Promise.all(runs);
}

/** Runs `cmd` with inherited stdio without blocking this process's event loop; resolves with its exit code. */
function runAsync(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
    child.on('error', (e) => {
      console.error(`bootstrap: ${cmd}: ${e.message}`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The suite with the type-check beside it; a failed type-check fails the run and its closing line. */
async function testJob() {
  const checking = typecheck();
  let status = await runAsync('node', ['scripts/run-tests.mjs', ...process.argv.slice(3)]);
  let failedChecks = 0;
  for (const r of await checking) {
    if (r.output) process.stdout.write(r.output);
    if (r.code !== 0) {
      console.error(`bootstrap: type-check of ${r.project} failed with exit code ${r.code}`);
      failedChecks += 1;
    }
  }
  if (failedChecks > 0) {
    const results = join(root, '.test-results', 'vitest.json');
    const res = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : {};
    const passed = res.numPassedTests ?? 0;
    const failed = (res.numFailedTests ?? 0) + failedChecks;
    const skipped = (res.numPendingTests ?? 0) + (res.numTodoTests ?? 0);
    console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped (${failedChecks} type-check(s) failed)`);
    status = status || 1;
  }
  process.exit(status);
}

ensurePnpm();
must('pnpm', ['install', '--frozen-lockfile']);
must('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
if (job === 'test') {
  // Format and lint (Biome) first; the type-check of everything, tests and benchmarks included
  // (vitest itself does not), runs beside the suite.
  must('pnpm', ['exec', 'biome', 'ci', '--colors=off', '.']);
}

if (job === 'demo') {
  // The demo itself, not through pnpm: its exit code is the demo's, with no pnpm failure banner
  // under a3s's own message (a missing key, a model server that refused).
  const app = join(root, 'apps', 'examples');
  process.exit(run(process.execPath, [join(app, 'demo.mjs'), ...process.argv.slice(3)], { cwd: app }));
} else if (job === 'bench') {
  process.exit(run('pnpm', ['exec', 'tsx', 'bench/run.ts', ...process.argv.slice(3)]));
} else if (job === 'soak') {
  process.exit(run('pnpm', ['exec', 'tsx', 'soak/run.ts', ...process.argv.slice(3)]));
} else {
  await testJob();
}
