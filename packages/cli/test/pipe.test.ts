// Piping `a3s` into a reader that stops early (`| head -1`): a real process, a real pipe.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo } from './kit.js';

/** Runs `a3s <args> | head -1` in bash; returns a3s's exit status, what head printed and a3s's stderr. */
function piped(args: string[]): { status: number; first: string; stderr: string } {
  const env = { ...process.env };
  delete env.A3S_MODEL;
  const errFile = join(mkdtempSync(join(tmpdir(), 'a3s-pipe-')), 'stderr.txt');
  const quoted = [process.execPath, A3S, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${quoted} 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], {
    encoding: 'utf8',
    env: { ...env, ERR: errFile },
    timeout: 20_000,
  });
  return {
    status: Number(/status=(\d+)/.exec(r.stderr)?.[1] ?? Number.NaN),
    first: r.stdout,
    stderr: readFileSync(errFile, 'utf8'),
  };
}

describe('a3s piped into head', () => {
  it('a3s tools | head -1 ends quietly with status 0', () => {
    const r = piped(['tools', '--cwd', tempRepo()]);
    expect(r.first).toMatch(/^tool +tier/);
    expect(r).toMatchObject({ status: 0, stderr: '' });
  });

  it('STEER-04: a3s run --json | head -1 exits 0; the run is interrupted, recorded as ended, and the session closed', () => {
    const dir = tempRepo();
    const script = scriptFile([
      { delay_ms: 200, text: 'Looking.', tool_calls: [{ id: 'l1', name: 'ls', args: {} }] },
      { delay_ms: 8_000, text: 'never' },
    ]);
    const started = Date.now();
    const r = piped(['run', '--json', '--session', 'piped', '--model', `scripted:${script}`, '--cwd', dir, 'look']);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(JSON.parse(r.first)).toMatchObject({ type: 'agent_start' });
    const log = join(dir, '.a3s', 'effect-log', 'piped.jsonl');
    const facts = parseLog(readFileSync(log, 'utf8')).facts;
    expect(facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(existsSync(`${log}.lock`)).toBe(false);
  });
});
