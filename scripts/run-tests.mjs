#!/usr/bin/env node
// Runs the whole vitest suite once and ends with the plain closing line CI reads:
// `tests: N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.test-results');
const out = join(outDir, 'vitest.json');
mkdirSync(outDir, { recursive: true });
rmSync(out, { force: true });

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
  { cwd: root, stdio: 'inherit' },
);
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
