// `a3s sessions` in a workspace with many sessions: the text list reads and shows the newest 50
// (by the logs' times) and says how many older ones it left out and how to see them; `--limit <n>`
// and `--all` choose, `--json` lists every one unless `--limit` is given. A limit that is no whole
// number from 1, or one given with `--all` or `--resume`, is refused by name.
import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

let repo = '';
const SESSIONS = 54;

beforeAll(async () => {
  repo = tempRepo();
  const r = await runMain(['run', '--session', 's0', '--model', `scripted:${scriptFile([{ text: 'Hi.' }])}`, 'first'], {
    cwd: repo,
  });
  expect(r.status, r.stderr).toBe(0);
  const folder = join(repo, '.a3s', 'effect-log');
  const base = Date.now() / 1000 - 10_000;
  for (let i = 1; i < SESSIONS; i++) copyFileSync(join(folder, 's0.jsonl'), join(folder, `s${i}.jsonl`));
  // An empty log (a session opened without a prompt) is counted apart, never against the limit.
  writeFileSync(join(folder, 'empty.jsonl'), '');
  // s53 is the newest, s0 the oldest.
  for (let i = 0; i < SESSIONS; i++) utimesSync(join(folder, `s${i}.jsonl`), base + i, base + i);
  utimesSync(join(folder, 'empty.jsonl'), base - 5, base - 5);
});

const listed = (out: string): string[] => [...out.matchAll(/^(s\d+) {2}/gm)].map((m) => m[1]!);

describe('a3s sessions: many sessions', () => {
  it('lists the newest 50 by default and says how many older ones were left out', async () => {
    const r = await runMain(['sessions'], { cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    const names = listed(r.stdout);
    expect(names).toHaveLength(50);
    expect(names[0]).toBe('s53');
    expect(names.at(-1)).toBe('s4');
    expect(r.stdout).toContain('(4 older session(s) not listed; --limit <n> lists more, --all every one)');
    expect(r.stdout).toContain('(1 session(s) opened without a prompt not listed');
  });

  it('--limit <n> lists the newest n, --all every one (with no note)', async () => {
    const three = await runMain(['sessions', '--limit', '3'], { cwd: repo });
    expect(three.status, three.stderr).toBe(0);
    expect(listed(three.stdout)).toEqual(['s53', 's52', 's51']);
    expect(three.stdout).toContain('(51 older session(s) not listed');
    const all = await runMain(['sessions', '--all'], { cwd: repo });
    expect(all.status, all.stderr).toBe(0);
    expect(listed(all.stdout)).toHaveLength(SESSIONS);
    expect(all.stdout).not.toContain('older session(s)');
  });

  it('--json lists every session (the empty one too) unless --limit is given', async () => {
    const all = await runMain(['sessions', '--json'], { cwd: repo });
    expect(all.status, all.stderr).toBe(0);
    const rows = JSON.parse(all.stdout) as { id: string; facts: number }[];
    expect(rows).toHaveLength(SESSIONS + 1);
    expect(rows.find((r) => r.id === 's0')!.facts).toBeGreaterThan(0);
    const two = await runMain(['sessions', '--json', '--limit', '2'], { cwd: repo });
    expect((JSON.parse(two.stdout) as { id: string }[]).map((r) => r.id)).toEqual(['s53', 's52', 'empty']);
  });

  it.each([
    [['--limit', '0'], "--limit: '0' is not a whole number from 1"],
    [['--limit', 'ten'], "--limit: 'ten' is not a whole number from 1"],
    [['--limit', '-3'], '--limit'],
    [['--limit', '2', '--all'], '--limit and --all cannot be used together'],
    [['--resume', 's1', '--limit', '2'], '--limit and --resume cannot be used together'],
    [['--resume', 's1', '--all'], '--all and --resume cannot be used together'],
  ])('refuses %j by name', async (args, message) => {
    const r = await runMain(['sessions', ...args], { cwd: repo });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
