// Shared setup of the SDK tests: a temporary git repository holding a tiny project.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Creates a git repository with `src/range.js` (an off-by-one), its test and a README; returns its path. */
export function tempRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'README.md'), '# demo\n\nSee PermissionPolicy notes.\n');
  writeFileSync(
    join(dir, 'src', 'range.js'),
    'export function range(start, end) {\n  const out = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
  );
  writeFileSync(
    join(dir, 'test', 'range.test.js'),
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { range } from '../src/range.js';\ntest('ends included', () => assert.deepEqual(range(1, 3), [1, 2, 3]));\n",
  );
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  return dir;
}
