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
const r = spawnSync(
  'pnpm',
  [
    'exec',
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    // The pack-install test keeps the third-party part of its npm install between runs: beside the
    // scratch folder (so on its file system), not in it.
    env: { A3S_PACK_INSTALL_CACHE: join(tmpdir(), 'a3s-pack-install-cache'), ...process.env, TMPDIR: scratch },
  },
);
try {
  rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
} catch (e) {
  console.error(`run-tests: could not remove ${scratch}: ${e.message}`);
}
let status = r.status ?? 1;
if (!existsSync(out)) {
  console.error('run-tests: vitest wrote no results');
  console.log('tests: 0 passed, 1 failed');
  process.exit(status || 1);
}
const res = JSON.parse(readFileSync(out, 'utf8'));
const passed = res.numPassedTests ?? 0;
const failed = (res.numFailedTests ?? 0) + (res.success === false && !res.numFailedTests ? 1 : 0);
const skipped = (res.numPendingTests ?? 0) + (res.numTodoTests ?? 0);
if (passed === 0 && status === 0) status = 1;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);
