// `pnpm soak` (or `npm run soak`): runs every `soak/*.soak.ts` (or those named on the command
// line) in its own Node process. Soaks are long attack and crash loops that print a table of
// what they tried and what got through; they exit non-zero when anything got through. They are
// never part of the test suite. Latest figures: RELIABILITY.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.soak.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  console.error(`soak: nothing matches ${wanted.join(' ')}`);
  process.exit(2);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`soak: ${file} FAILED (exit ${r.status ?? r.signal})`);
  }
}
console.log(`\nsoak: ${files.length - failed} of ${files.length} passed`);
process.exit(failed ? 1 : 0);
