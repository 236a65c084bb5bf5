// `a3s sessions --resume <id>` of a saved session whose snapshot file is damaged: the damage is
// named (file and problem, exit 1), never reported as "no session"; when the session's fact log is
// there, a warning names the snapshot and the log continues. `a3s sessions` lists such a file as an
// unreadable snapshot with its reason, unless a log stands for it. Through the real executable.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, loggedPrompts, scriptFile } from './kit.js';

describe('a damaged saved session', () => {
  it('without a log: the snapshot file and its problem are named, exit 1', () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-snap-'));
    const folder = join(ws, '.a3s', 'sessions');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'bad.json'), '{bad');
    writeFileSync(join(folder, 'old.json'), '{}');
    mkdirSync(join(folder, 'dir.json'));
    const model = `scripted:${scriptFile([{ text: 'hi' }])}`;
    for (const [id, said] of [
      [
        'bad',
        `a3s sessions: SESSION_SNAPSHOT_INVALID: session snapshot '${join(folder, 'bad.json')}': (root): is not valid JSON`,
      ],
      [
        'old',
        `a3s sessions: SESSION_SNAPSHOT_INVALID: session snapshot '${join(folder, 'old.json')}': version: must be 1`,
      ],
      ['dir', `a3s sessions: SESSION_STORE: session store: load '${join(folder, 'dir.json')}' failed: state file`],
    ] as const) {
      const r = a3s(['sessions', '--cwd', ws, '--resume', id, '--model', model], {}, '');
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.startsWith(said), r.stderr).toBe(true);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    // Listed, not hidden: each with what is wrong with it.
    const list = a3s(['sessions', '--cwd', ws]);
    expect(list.status, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const [id, why] of [
      ['bad', 'is not valid JSON'],
      ['old', 'version: must be 1'],
      ['dir', 'is a folder'],
    ] as const)
      expect(lines.find((l) => l.startsWith(`${id}  `))).toMatch(new RegExp(`  unreadable snapshot: .*${why}`));
    const json = JSON.parse(a3s(['sessions', '--cwd', ws, '--json']).stdout) as { id: string; last: string }[];
    expect(json.map((r) => r.id).sort()).toEqual(['bad', 'dir', 'old']);
    const none = a3s(['sessions', '--cwd', ws, '--resume', 'nosuch', '--model', model], {}, '');
    expect([none.status, none.stderr]).toEqual([2, expect.stringContaining("--resume: no session 'nosuch'")]);
  });

  it('with its log: a warning, and the log continues', () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-snap-'));
    const model = `scripted:${scriptFile([{ text: 'first' }, { text: 'second' }])}`;
    expect(a3s(['run', '--cwd', ws, '--session', 's1', '--model', model, 'one']).status).toBe(0);
    mkdirSync(join(ws, '.a3s', 'sessions'), { recursive: true });
    writeFileSync(join(ws, '.a3s', 'sessions', 's1.json'), '{bad');
    const r = a3s(['sessions', '--cwd', ws, '--resume', 's1', '--model', model], {}, 'two\n/exit\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: the saved session 's1' cannot be read \(session snapshot '.*s1\.json': \(root\): is not valid JSON.*\); continuing its fact log instead\n/,
    );
    expect(r.stdout).toContain('completed (narrative)');
    // The prompt went to the session's log, after the first run's.
    expect(loggedPrompts(ws)).toBe(2);
    // The log stands for the session: listed once, from its log.
    const list = a3s(['sessions', '--cwd', ws]);
    expect(list.stdout).toMatch(/^s1 {2}.* 2 run\(s\), last completed/);
    expect(list.stdout).not.toContain('unreadable');
  });
});
