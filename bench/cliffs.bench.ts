// Cliffs an outside benchmark found (2026-12-06), each case in a fresh Node process through the
// built SDK (`session.tool(...)`, YOLO), its wall time and peak RSS printed beside a plain peer
// run in the same bench: `read` of a few lines of a large file and a batch naming it 16 times,
// `glob` paged through a 50,000-file tree and a glob with a folder prefix, `write` of a 4 MB file
// of short lines, a failed `edit` of a 50 MB file, and the fact log of 1,000 chat messages
// (its size and the time to reopen it). BENCH_RUNS sets the runs of each case (default 3, median).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { fmt, median } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const root = join(import.meta.dirname, '..');
const sdk = join(root, 'packages', 'sdk-node', 'dist', 'index.js');
const testing = join(root, 'packages', 'core', 'dist', 'testing.js');
const scratch = mkdtempSync(join(tmpdir(), 'a3s-bench-cliffs-'));
// The ripgrep the workspace tools run.
const rgPath = ((await new LocalWorkspace({ root: scratch }).search!.backend()) as unknown as { rg: string }).rg;

/** Runs `body` (module code with `session` in scope, working on `dir`) in a new process; its ms and peak RSS. */
function ours(dir: string, body: string): { ms: number; rss: number } {
  const script = join(scratch, 'case.mjs');
  writeFileSync(
    script,
    `import { Agent } from ${JSON.stringify(sdk)};
import { ScriptedLlmClient } from ${JSON.stringify(testing)};
const agent = await Agent.create({ model: new ScriptedLlmClient([]), workspaceConfig: false, web: false });
const session = await agent.session(${JSON.stringify(dir)}, { governance: { yolo: true } });
const t0 = performance.now();
${body}
const ms = performance.now() - t0;
await session.close();
await agent.close();
console.log(JSON.stringify({ ms, rss: process.resourceUsage().maxRSS / 1024 }));
`,
  );
  const out = execFileSync(process.execPath, [script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; rss: number };
}

/** Wall ms of a peer command. */
function peer(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  spawnSync(cmd, args, { cwd, stdio: 'ignore', maxBuffer: 1 << 30 });
  return performance.now() - t0;
}

function row(name: string, dir: string, body: string, peerName: string, run: () => number): void {
  const a: { ms: number; rss: number }[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(ours(dir, body));
    b.push(run());
  }
  const ms = median(a.map((x) => x.ms));
  const rss = median(a.map((x) => x.rss));
  console.log(`| ${name} | ${fmt(ms, 0)} ms, ${fmt(rss, 0)} MiB | ${peerName} ${fmt(median(b), 0)} ms |`);
}

const check = `if (r.exitCode !== 0) throw new Error(r.output.slice(0, 300));`;

try {
  console.log(`cliffs, ${RUNS} runs each (median; RSS: peak of the whole process, Node alone ~60 MiB)`);
  console.log('| case | ours | peer |');
  console.log('|---|---|---|');

  const big = join(scratch, 'big');
  mkdirSync(big);
  const line = `${'x'.repeat(95)} log\n`;
  const chunk = line.repeat(10_000);
  for (let i = 0; i < 200; i++) writeFileSync(join(big, 'app.log'), chunk, { flag: 'a' });
  row(
    '`read` 3 lines of a 200 MB log',
    big,
    `const r = await session.tool('read', { file_path: 'app.log', offset: 1000000, limit: 3 }); ${check}`,
    '`sed -n 1000001,1000003p`',
    () => peer('sed', ['-n', '1000001,1000003p;1000003q', 'app.log'], big),
  );
  row(
    '`read` batch naming it 16 times, 1 line each',
    big,
    `const r = await session.tool('read', { files: Array.from({ length: 16 }, () => ({ path: 'app.log', limit: 1 })) }); ${check}`,
    '16 × `head -1`',
    () => {
      let ms = 0;
      for (let i = 0; i < 16; i++) ms += peer('head', ['-1', 'app.log'], big);
      return ms;
    },
  );
  writeFileSync(join(big, 'e.txt'), line.replace('log', 'a').repeat(500_000));
  row(
    'failed `edit` of a 50 MB file',
    big,
    `const r = await session.tool('edit', { file_path: 'e.txt', old_string: 'const handler = async (req, res) => { return 1; }', new_string: 'X' }); if (r.exitCode === 0) throw new Error('found');`,
    '`grep -F` (not found)',
    () => peer('grep', ['-F', '-c', 'const handler = async', 'e.txt'], big),
  );
  rmSync(big, { recursive: true, force: true });

  const small = join(scratch, 'w');
  mkdirSync(small);
  writeFileSync(join(small, 'w.txt'), 'a\n'.repeat(2_000_000));
  row(
    '`write` of 4 MB of short lines over one (every other line changed)',
    small,
    `const r = await session.tool('write', { file_path: 'w.txt', content: 'a\\nb\\n'.repeat(1_000_000) }); ${check}`,
    '`fs.writeFileSync`',
    () => {
      const t0 = performance.now();
      writeFileSync(join(small, 'peer.txt'), 'a\nb\n'.repeat(1_000_000));
      return performance.now() - t0;
    },
  );

  const tree = join(scratch, 'tree');
  for (let a = 0; a < 10; a++)
    for (let b = 0; b < 10; b++) {
      const d = join(tree, `a${a}`, `b${b}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, '.gitignore'), '*.tmp\n');
      for (let f = 0; f < 500; f++) writeFileSync(join(d, `file${f}.txt`), '');
    }
  row(
    '`glob` `**/*`, every page of 1,000 (50,000 files)',
    tree,
    `let cursor; let n = 0; do { const r = await session.tool('glob', { pattern: '**/*', limit: 1000, sort: 'path', ...(cursor ? { cursor } : {}) }); ${check} cursor = JSON.parse(r.metadataJson).next_cursor ?? undefined; n++; } while (cursor);`,
    '`rg --files --sort path`',
    () => peer(rgPath, ['--files', '--sort', 'path'], tree),
  );
  row(
    '`glob` `a1/b1/*.txt` (a folder prefix)',
    tree,
    `const r = await session.tool('glob', { pattern: 'a1/b1/*.txt' }); ${check}`,
    '`rg --files a1/b1`',
    () => peer(rgPath, ['--files', 'a1/b1'], tree),
  );
  rmSync(tree, { recursive: true, force: true });

  const chat = join(scratch, 'chat');
  mkdirSync(chat);
  const script = join(scratch, 'chat.mjs');
  writeFileSync(
    script,
    `import { Agent } from ${JSON.stringify(sdk)};
import { ScriptedLlmClient } from ${JSON.stringify(testing)};
import { readFileSync, statSync } from 'node:fs';
const dir = ${JSON.stringify(chat)};
const model = new ScriptedLlmClient({ turns: Array.from({ length: 1000 }, (_, i) => ({ text: 'ok ' + i })) }, { keepRequests: 0 });
const agent = await Agent.create({ model, workspaceConfig: false, web: false });
const s = await agent.session(dir, { sessionId: 'chat', governance: { yolo: true } });
for (let i = 0; i < 1000; i++) await s.send('q ' + i);
await s.close();
const path = dir + '/.a3s/effect-log/chat.jsonl';
let t0 = performance.now();
const again = await agent.session(dir, { sessionId: 'chat' });
const reopen = performance.now() - t0;
await again.close();
await agent.close();
t0 = performance.now();
for (const l of readFileSync(path, 'utf8').split('\\n')) if (l) JSON.parse(l);
const parse = performance.now() - t0;
console.log(JSON.stringify({ mb: statSync(path).size / 1e6, reopen, parse }));
`,
  );
  const c = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim()) as {
    mb: number;
    reopen: number;
    parse: number;
  };
  console.log(
    `| fact log of 1,000 chat messages: size, reopen | ${fmt(c.mb, 1)} MB, reopen ${fmt(c.reopen, 0)} ms | \`readFile\` + \`JSON.parse\` of its lines ${fmt(c.parse, 0)} ms |`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
