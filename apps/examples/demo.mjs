#!/usr/bin/env node
// The main job (`npm run demo`): `a3s run` fixes the failing test of demo-repo — on a copy in a
// temporary folder, so this repository stays clean — then `a3s replay` prints what the run did,
// read back from its fact log. Only the model is scripted (demo-model.json); the kernel, the
// tools, the fact log, the completion gate and the store are the real ones.
// Use a real model instead: A3S_MODEL=openai/gpt-4o OPENAI_API_KEY=... npm run demo
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const cliPackage = createRequire(import.meta.url).resolve('@a3s-code/cli/package.json');
const a3s = join(dirname(cliPackage), 'dist', 'bin.js');
const model = process.env.A3S_MODEL ?? `scripted:${join(here, 'demo-model.json')}`;

const repo = mkdtempSync(join(tmpdir(), 'a3s-demo-'));
cpSync(join(here, 'demo-repo'), repo, { recursive: true });
console.log(
  `demo: a copy of apps/examples/demo-repo in ${repo}; model ${model.startsWith('scripted:') ? 'scripted (apps/examples/demo-model.json)' : model}\n`,
);

const a3sRun = (args) => spawnSync(process.execPath, [a3s, ...args], { stdio: 'inherit' }).status ?? 1;
const prompt = 'The test suite fails (node --test). Find the bug, fix it, and verify the fix.';
const status = a3sRun(['run', '--yolo', '--model', model, '--cwd', repo, '--session', 'demo', prompt]);
// 2: a usage or configuration error (no key, a malformed model) that a3s run printed; nothing
// ran, so there is no log to replay, and the copy is removed.
if (status === 2) {
  rmSync(repo, { recursive: true, force: true });
  process.exit(status);
}
// The command as a user types it from the repository root (`a3s` is the CLI's bin.js; `npm link`
// in packages/cli puts it on PATH).
console.log(`\n$ node packages/cli/dist/bin.js replay --cwd ${repo} demo\n`);
const replay = a3sRun(['replay', '--cwd', repo, 'demo']);
console.log(`\ndemo: the copy stays in ${repo} (its fact log: .a3s/effect-log/demo.jsonl); rm -rf it when done`);
process.exit(status || replay);
