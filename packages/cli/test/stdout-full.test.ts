// stdout that cannot be written (`a3s … > /dev/full`: ENOSPC) is not a crash: the run winds down as
// when the reader of a pipe goes away (its log records the end, no lock left), the loss is said in
// one line on stderr, with no stack trace, and the exit code is 1.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo, TEST_A3S_HOME } from './kit.js';

/** Runs `a3s` with stdout on /dev/full. */
function toFullDisk(args: string[]): { status: number | null; stderr: string } {
  const full = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [A3S, ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', A3S_HOME: TEST_A3S_HOME },
      stdio: ['ignore', full, 'pipe'],
      timeout: 20_000,
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    closeSync(full);
  }
}

const LOST = 'a3s: cannot write to stdout: ENOSPC: no space left on device, write; output was lost\n';

describe.skipIf(!existsSync('/dev/full'))('stdout on a full disk', () => {
  it('a3s run: exit 1, one line on stderr, the run ended in its log and the log unlocked', () => {
    const dir = tempRepo();
    const script = scriptFile([{ text: 'Hello from a scripted model.' }]);
    for (const json of [[], ['--json']]) {
      const r = toFullDisk(['run', ...json, '--session', 's', '--model', `scripted:${script}`, '--cwd', dir, 'hi']);
      expect([r.status, r.stderr]).toEqual([1, LOST]);
      const log = join(dir, '.a3s', 'effect-log', 's.jsonl');
      expect(existsSync(`${log}.lock`)).toBe(false);
      expect(parseLog(readFileSync(log, 'utf8')).facts.at(-1)?.type).toBe('run.ended');
    }
  });

  it('every command that prints: exit 1 and the same line; a usage error keeps its 2', () => {
    for (const args of [['--help'], ['tools'], ['models'], ['run', '--help']]) {
      const r = toFullDisk(args);
      expect([r.status, r.stderr], args.join(' ')).toEqual([1, LOST]);
    }
    const usage = toFullDisk(['nope']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^a3s: unknown command 'nope'/);
  });
});
