// The listing a command pays for while path deny rules exist: `filesToHide` (every folder a
// rule's pattern can reach is listed, each entry judged by the policy) against the least it could
// cost, a bare parallel recursive `readdir` of the same tree. Run on this repository's own tree
// (with its node_modules), paired and alternated; BENCH_RUNS sets the pairs (default 15).
import { readdir } from 'node:fs/promises';
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
