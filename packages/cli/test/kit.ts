// Shared helpers of the CLI process tests: a temporary git repository, a script file, and the
// real `a3s` executable (the built dist/bin.js) run as a child process.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The built executable. */
export const A3S = join(import.meta.dirname, '..', 'dist', 'bin.js');

/** `A3S_HOME` of the CLI under test (the workspace trust record): never the real home folder. */
export const TEST_A3S_HOME = mkdtempSync(join(tmpdir(), 'a3s-home-'));

/** A git repository with an off-by-one in `src/range.js` and its failing `node --test` test. */
export function tempRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-cli-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'src', 'range.js'),
    'export function range(start, end) {\n  const out = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
  );
  writeFileSync(
    join(dir, 'test', 'range.test.js'),
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { range } from '../src/range.js';\ntest('ends included', () => assert.deepEqual(range(1, 3), [1, 2, 3]));\n",
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

/** Writes a model script next to (not inside) the repository and returns its path. */
export function scriptFile(turns: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'a3s-script-')), 'model.json');
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

/** How many prompts (`user.message` facts) the session logs of `dir` hold. */
export function loggedPrompts(dir: string): number {
  const logs = join(dir, '.a3s', 'effect-log');
  if (!existsSync(logs)) return 0;
  return readdirSync(logs)
    .filter((f) => f.endsWith('.jsonl'))
    .reduce((n, f) => n + readFileSync(join(logs, f), 'utf8').split('"type":"user.message"').length - 1, 0);
}

/**
 * Resolves once the session logs of `dir` hold `count` prompts: a run that logged its prompt is
 * active and on its model call (a Ctrl-C or a steer then reaches that run).
 */
export async function promptsLogged(dir: string, count: number, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (loggedPrompts(dir) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} prompt(s) logged in ${dir} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The edit + verify turns that fix the repository. */
export const FIX_TURNS = [
  {
    text: 'Fixing the bound.',
    tool_calls: [
      { id: 'e1', name: 'edit', args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' } },
    ],
  },
  {
    text: 'Verifying.',
    tool_calls: [
      { id: 'v1', name: 'verify', args: { subject: 'range fix', commands: [{ id: 'unit', command: 'node --test' }] } },
    ],
  },
];

/** Runs `a3s` to completion (with `input` on stdin). `A3S_MODEL` is removed from the environment unless given. */
export function a3s(args: string[], env: Record<string, string> = {}, input?: string | Uint8Array) {
  const base = { ...process.env };
  delete base.A3S_MODEL;
  const r = spawnSync(process.execPath, [A3S, ...args], {
    encoding: 'utf8',
    env: { ...base, A3S_HOME: TEST_A3S_HOME, ...env },
    timeout: 20_000,
    ...(input === undefined ? {} : { input }),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What an in-process `main` call printed and returned. */
export interface MainRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `main(args, io)` in this process with captured output, `cwd` as the folder it starts in and
 * `env` as its whole environment (nothing leaks in from the test's own environment).
 */
export async function runMain(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdoutClosed?: AbortSignal } = {},
): Promise<MainRun> {
  const { main } = await import('../src/main.js');
  const { PassThrough } = await import('node:stream');
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    stdin: new PassThrough(),
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { PATH: process.env.PATH ?? '', A3S_HOME: TEST_A3S_HOME, ...options.env },
    cwd: options.cwd ?? process.cwd(),
    ...(options.stdoutClosed ? { stdoutClosed: options.stdoutClosed } : {}),
  });
  return { status, stdout, stderr };
}

/** The smallest valid PNG (signature, IHDR, IDAT, IEND): a 1×1 image for attachment tests. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
