// Session ids as a new user types them: a mistyped --session is said, not silently a new
// session; the logs of a session's subagents are listed with it, not as sessions of their own;
// the offline hint of a3s sessions is a command a3s sessions takes.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hintsFor } from '../src/hints.js';
import { runMain, scriptFile, tempRepo } from './kit.js';

const hello = () => `scripted:${scriptFile([{ text: 'Hi.' }])}`;

describe('session ids', () => {
  it('a --session no session has, in a workspace that has sessions, is said on stderr with the closest id', async () => {
    const repo = tempRepo();
    const first = await runMain(['run', '--session', 'alpha-fix', '--model', hello(), 'go'], { cwd: repo });
    expect(first.status, first.stderr).toBe(0);
    // The first session of a workspace is plainly new: nothing said.
    expect(first.stderr).not.toContain('note:');
    const again = await runMain(['run', '--session', 'alpha-fix', '--model', hello(), 'again'], { cwd: repo });
    expect(again.stderr).not.toContain('note:');
    const typo = await runMain(['run', '--session', 'alpha-fxi', '--model', hello(), 'go'], { cwd: repo });
    expect(typo.status).toBe(0);
    expect(typo.stderr).toContain(
      `note: no session 'alpha-fxi' in ${repo} yet; starting a new one with this id (did you mean 'alpha-fix'?)`,
    );
    const other = await runMain(['run', '--session', 'zzz', '--model', hello(), 'go'], { cwd: repo });
    expect(other.stderr).toContain("note: no session 'zzz'");
    expect(other.stderr).not.toContain('did you mean');
  });

  it("a3s sessions lists a subagent's log (<thread>.task-1) with its session, not as a session", async () => {
    const repo = tempRepo();
    expect((await runMain(['run', '--session', 'lead', '--model', hello(), 'go'], { cwd: repo })).status).toBe(0);
    const logs = join(repo, '.a3s', 'effect-log');
    copyFileSync(join(logs, 'lead.jsonl'), join(logs, 'lead.task-1.jsonl'));
    copyFileSync(join(logs, 'lead.jsonl'), join(logs, 'lead.worker-2.jsonl'));
    // A log named like a subagent's whose session is not there is listed as it is.
    copyFileSync(join(logs, 'lead.jsonl'), join(logs, 'gone.task-1.jsonl'));
    const json = await runMain(['sessions', '--json'], { cwd: repo });
    const rows = JSON.parse(json.stdout) as Array<{ id: string; subagentLogs: number }>;
    expect(rows.map((r) => [r.id, r.subagentLogs]).sort()).toEqual([
      ['gone.task-1', 0],
      ['lead', 2],
    ]);
    const text = await runMain(['sessions'], { cwd: repo });
    expect(text.stdout).toContain('2 subagent log(s)');
    expect(text.stdout).not.toContain('lead.task-1');
  });

  it('the offline hint of a3s sessions names --resume, the only way it takes --model', () => {
    const hints = hintsFor('sessions', { code: 'MODEL_NOT_CONFIGURED', message: 'no model' });
    expect(hints.join('\n')).toContain('a3s sessions --resume <id> --model scripted:model.json');
  });
});

describe('a3s run --json before a run starts', () => {
  it('prints one a3s_error line on stdout: the code, the message, the hints and the exit code', async () => {
    const repo = tempRepo();
    const r = await runMain(['run', '--json', 'hi'], { cwd: repo });
    expect(r.status).toBe(2);
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'a3s_error', code: 'MODEL_NOT_CONFIGURED', exit_code: 2 });
    expect(String(last.message)).toContain('no model is configured');
    expect((last.hints as string[]).length).toBeGreaterThan(0);
    // Without --json, stdout stays empty.
    expect((await runMain(['run', 'hi'], { cwd: repo })).stdout).toBe('');
  });
});
