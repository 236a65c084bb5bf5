// Symlink race, 60 s: a child process swaps `race/` between a real folder and a symbolic link to
// a folder outside the workspace as fast as it can rename, while read, ls and write (into existing
// and into missing folders) loop through it. Anything outside that is read, listed or created is
// a leak: the soak prints the counts and exits 1 on any leak. Uses the built package; the race
// itself is the one the test suite runs for 3 s.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { LocalWorkspace, lsTool, readTool, writeTool } from '@a3s-code/tools-workspace';
import { runSymlinkRace } from '../packages/tools-workspace/src/test-support/symlink-race.js';

const RACE_MS = Number(process.env.SOAK_RACE_MS ?? 60_000);
const LOOPS = 3;

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-soak-race-')));
const t0 = Date.now();
const { counts, swaps, swapperExit, createdOutside } = await runSymlinkRace(sandbox, RACE_MS, LOOPS, {
  read: readTool,
  write: writeTool,
  ls: lsTool,
  callerFor: (root) => {
    const ws = new LocalWorkspace({ root });
    return (tool, args) =>
      (tool as Tool<unknown>).execute(
        args,
        createToolContext({ workspace: ws, toolName: tool.name, callId: 'soak', runId: 'soak', sessionId: 'soak' }),
      );
  },
});
rmSync(sandbox, { recursive: true, force: true });

console.log(
  `symlink race: ${((Date.now() - t0) / 1000).toFixed(0)} s, ${swaps.toLocaleString()} swaps, ${LOOPS} concurrent tool loops`,
);
console.log('| count | value |\n|---|---:|');
for (const [name, value] of Object.entries(counts)) console.log(`| ${name} | ${value.toLocaleString()} |`);
if (createdOutside.length > 0) console.log(`created outside: ${createdOutside.slice(0, 20).join(', ')}`);
const leak = counts.outsideReads + counts.outsideListings + counts.outsideFiles;
if (swapperExit !== 0) console.log(`swapper exited with ${swapperExit}`);
console.log(
  leak === 0 && swapperExit === 0 ? 'PASS: nothing outside was read, listed or created' : `FAIL: ${leak} leak(s)`,
);
process.exit(leak === 0 && swapperExit === 0 ? 0 : 1);
