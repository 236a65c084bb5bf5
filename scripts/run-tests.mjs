#!/usr/bin/env node
// Runs the whole vitest suite once and ends with the plain closing line CI reads:
// `tests: N passed, N failed, N skipped`.
// The tests' temporary folders go into one folder of their own (TMPDIR), removed at the end, so
// runs leave nothing behind in the machine's temporary folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.test-results');
const out = join(outDir, 'vitest.json');
mkdirSync(outDir, { recursive: true });
rmSync(out, { force: true });

// Short: language servers and debug adapters put Unix sockets there (at most 107 bytes a path).
// Open to every user, as the machine's own is (tests run commands as another user too).
const scratch = mkdtempSync(join(tmpdir(), 'a3t-'));
chmodSync(scratch, 0o1777);
const unhandled = join(outDir, 'unhandled-errors.json');
rmSync(unhandled, { force: true });
const reporters = [
  '--reporter=default',
  '--reporter=json',
  `--reporter=${join(root, 'scripts', 'unhandled-errors-reporter.mjs')}`,
];
const vitest = (outputFile, args) =>
  spawnSync('pnpm', ['exec', 'vitest', 'run', ...reporters, `--outputFile.json=${outputFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    // The pack-install test keeps the third-party part of its npm install between runs: beside the
    // scratch folder (so on its file system), not in it.
    env: {
      A3S_PACK_INSTALL_CACHE: join(tmpdir(), 'a3s-pack-install-cache'),
      ...process.env,
      TMPDIR: scratch,
      A3S_UNHANDLED_ERRORS_FILE: unhandled,
    },
  });
const r = vitest(out, process.argv.slice(2));
// Many tests drive real language servers, debuggers, kernels and browsers with time limits; with
// four workers on two cores one of them now and then runs out of time. The test files that failed
// are run once more, alone, and only what fails again fails the run; what passed the second time
// is named, so a test that fails only under load is seen, not hidden.
const again = join(outDir, 'vitest-again.json');
rmSync(again, { force: true });
const readResults = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const failedTests = (results) =>
  (results?.testResults ?? []).flatMap((f) =>
    f.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${f.name.replace(`${root}/`, '')} > ${t.fullName}`),
  );
const res = readResults(out);
const failedFiles = (res?.testResults ?? []).filter((f) => f.status === 'failed');
// Only a few failed tests, each file failing by its tests (not by an error while loading it), and
// no error thrown outside a test.
const unhandledErrors = () => (existsSync(unhandled) ? JSON.parse(readFileSync(unhandled, 'utf8')).unhandled : 1);
const unhandledFirst = unhandledErrors();
const rerun =
  unhandledFirst === 0 &&
  failedFiles.length > 0 &&
  failedFiles.length <= 5 &&
  failedFiles.every((f) => f.assertionResults.some((t) => t.status === 'failed')) &&
  failedTests(res).length <= 5;
let second;
if (rerun) {
  console.log(`run-tests: running the ${failedFiles.length} test file(s) that failed again, alone`);
  second = vitest(
    again,
    failedFiles.map((f) => f.name),
  );
}
try {
  rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
} catch (e) {
  console.error(`run-tests: could not remove ${scratch}: ${e.message}`);
}
let status = r.status ?? 1;
if (res === undefined) {
  console.error('run-tests: vitest wrote no results');
  console.log('tests: 0 passed, 1 failed');
  process.exit(status || 1);
}
let passed = res.numPassedTests ?? 0;
let failed = (res.numFailedTests ?? 0) + (res.success === false && !res.numFailedTests ? 1 : 0);
const skipped = (res.numPendingTests ?? 0) + (res.numTodoTests ?? 0);
const resAgain = second === undefined ? undefined : readResults(again);
if (
  resAgain !== undefined &&
  second.status === 0 &&
  resAgain.success === true &&
  failedTests(resAgain).length === 0 &&
  unhandledErrors() === 0
) {
  for (const t of failedTests(res)) console.log(`run-tests: failed under load, passed when run again alone: ${t}`);
  passed += failedTests(res).length;
  failed = 0;
  status = 0;
} else if (resAgain !== undefined) console.log('run-tests: what failed failed again; the first run counts');
if (passed === 0 && status === 0) status = 1;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);
