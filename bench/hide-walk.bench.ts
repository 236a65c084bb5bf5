// The listing a command pays for while path deny rules exist: `filesToHide` (every folder a
// rule's pattern can reach is listed, each entry judged by the policy) against the least it could
// cost, a bare parallel recursive `readdir` of the same tree. Run on this repository's own tree
// (with its node_modules), paired and alternated; BENCH_RUNS sets the pairs (default 15). A last
// row times an absolute rule (`Read(<folder>/keys/**)`) whose path crosses a folder of 50,000
// entries, against one `readdir` of that folder: a name every rule spells out is looked up, not listed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesToHide } from '../packages/core/src/invoker/files-to-hide.js';
import { PermissionPolicy } from '../packages/core/src/permissions/permission-policy.js';
import { fmt, pairedMedians } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const root = join(import.meta.dirname, '..');

let entries = 0;
async function bare(dir: string): Promise<void> {
  let list: import('node:fs').Dirent[];
  try {
    list = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries += list.length;
  await Promise.all(list.filter((e) => e.isDirectory()).map((e) => bare(`${dir}/${e.name}`)));
}

for (const rule of ['Read(**/*.pem)', 'Read(.env)']) {
  const policy = new PermissionPolicy({ deny: [rule] });
  const ours = async (): Promise<void> => {
    await filesToHide(root, policy, false, 'bash', 10_000_000);
  };
  const peer = async (): Promise<void> => {
    entries = 0;
    await bare(root);
  };
  const m = await pairedMedians(RUNS, ours, peer);
  console.log(
    `filesToHide under ${rule}: ${fmt(m.ours, 1)} ms   bare recursive readdir of the tree (${entries.toLocaleString('en')} entries): ${fmt(m.peer, 1)} ms (median of ${RUNS} pairs)`,
  );
}

const crowd = mkdtempSync(join(tmpdir(), 'a3s-bench-crowd-'));
try {
  for (let i = 0; i < 50_000; i++) writeFileSync(join(crowd, `f${i}`), '');
  mkdirSync(join(crowd, 'keys'));
  writeFileSync(join(crowd, 'keys', 'id'), 'x');
  const policy = new PermissionPolicy({ deny: [`Read(${crowd}/keys/**)`] });
  const m = await pairedMedians(
    RUNS,
    async () => {
      await filesToHide(root, policy, false, 'bash', 10_000_000);
    },
    async () => {
      await readdir(crowd);
    },
  );
  console.log(
    `filesToHide under Read(<a folder of 50,000 entries>/keys/**): ${fmt(m.ours, 2)} ms   one readdir of that folder: ${fmt(m.peer, 1)} ms (median of ${RUNS} pairs)`,
  );
} finally {
  rmSync(crowd, { recursive: true, force: true });
}
