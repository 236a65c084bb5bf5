// `pnpm bench`: runs every `bench/*.bench.ts` (or those named on the command line) in its own
// Node process, so each one's peak memory is its own. Never part of the test suite.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  console.error(`bench: nothing matches ${wanted.join(' ')}`);
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
