// `a3s` started from a folder that was deleted while a shell stood in it: `process.cwd()` throws.
// The built executable answers --version and --help, runs a command on an absolute -C, and
// refuses the rest with one `a3s:` line (exit 2), never a stack trace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, TEST_A3S_HOME } from './kit.js';

/** Runs the built `a3s` with `args` from a folder deleted just before it starts. */
function fromDeletedFolder(args: string[]) {
  const gone = mkdtempSync(join(tmpdir(), 'a3s-gone-'));
  const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME, NO_COLOR: '1', GONE: gone };
  delete env.A3S_MODEL;
  // The shell enters the folder, removes it, then runs a3s in it (as `cd d; rmdir ../d; a3s`).
  const r = spawnSync('sh', ['-c', 'cd "$GONE" && rmdir "$GONE" && exec "$0" "$@"', process.execPath, A3S, ...args], {
    encoding: 'utf8',
    env,
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const GONE_LINE =
  'a3s: the current folder no longer exists (it was deleted or moved); cd to an existing folder, or name the workspace with -C <absolute path>\n';

describe('a3s from a deleted folder', () => {
  it('--version and --help answer', () => {
    const version = fromDeletedFolder(['--version']);
    expect(version.stderr).toBe('');
    expect(version).toMatchObject({ status: 0, stdout: expect.stringMatching(/^a3s \d+\.\d+\.\d+/) });
    expect(fromDeletedFolder(['run', '--help'])).toMatchObject({ status: 0, stderr: '' });
  });

  it('a command runs on an absolute -C; without one, or with a relative one, one a3s: line and exit 2', () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-ws-'));
    writeFileSync(join(ws, 'm.json'), JSON.stringify({ turns: [{ text: 'From the workspace.' }] }));
    const run = fromDeletedFolder(['run', '-C', ws, '-m', `scripted:${join(ws, 'm.json')}`, 'hi']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('From the workspace.');
    expect(fromDeletedFolder(['--cwd', ws, 'tools'])).toMatchObject({ status: 0, stderr: '' });

    for (const args of [['tools'], [], ['run', 'hi']]) {
      const r = fromDeletedFolder(args);
      expect(r, args.join(' ')).toMatchObject({ status: 2, stderr: GONE_LINE });
    }
    const relative = fromDeletedFolder(['sessions', '-C', 'app']);
    expect(relative.status).toBe(2);
    expect(relative.stderr).toMatch(
      /^a3s: the current folder no longer exists [^\n]*-C 'app' \(a relative path\)[^\n]*\n$/,
    );
    const serve = fromDeletedFolder(['serve']);
    expect(serve.status).toBe(2);
    expect(serve.stderr).toMatch(/^a3s: the current folder no longer exists[^\n]*start a3s serve again\n$/);
  });
});
