// `a3s sessions` lists a session by the id the person chose, also when that id is no safe file
// name and its log is named by a hash of it (`s-<sha256>.jsonl`): the id is recorded beside the
// log (`<thread>.id`) when the log is opened. An id a terminal cannot show as it is (very long, or
// with control characters) is cut or made visible, and the log's name follows it, so two sessions
// never look alike and the name printed reopens the session.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

const hello = () => `scripted:${scriptFile([{ text: 'Hi.' }])}`;

async function run(repo: string, id: string, prompt = 'go'): Promise<void> {
  const r = await runMain(['run', '--session', id, '--model', hello(), prompt], { cwd: repo });
  expect(r.status, r.stderr).toBe(0);
}

interface Row {
  id: string;
  thread?: string;
  facts: number;
}

describe('a3s sessions: the ids the person chose', () => {
  it('lists "fix bug", "../evil" and a 300-character id by their ids, not by their hashed log names', async () => {
    const repo = tempRepo();
    const long = `${'x'.repeat(290)}-0123456789`;
    for (const id of ['fix bug', '../evil', long, 'plain']) await run(repo, id);
    const text = await runMain(['sessions'], { cwd: repo });
    expect(text.status).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines.some((l) => l.startsWith('fix bug  '))).toBe(true);
    expect(lines.some((l) => l.startsWith('../evil  '))).toBe(true);
    expect(lines.some((l) => l.startsWith('plain  '))).toBe(true);
    // Ids shown whole need no other name; the long one is cut, with the name of its log after it.
    expect(text.stdout).not.toContain(threadIdFor('fix bug'));
    expect(text.stdout).not.toContain(threadIdFor('../evil'));
    expect(text.stdout).toContain(`${'x'.repeat(59)}… (${threadIdFor(long)})`);
    expect(text.stdout).not.toContain('x'.repeat(61));
    const rows = JSON.parse((await runMain(['sessions', '--json'], { cwd: repo })).stdout) as Row[];
    expect(rows.map((r) => [r.id, r.thread]).sort()).toEqual(
      [
        ['fix bug', threadIdFor('fix bug')],
        ['../evil', threadIdFor('../evil')],
        [long, threadIdFor(long)],
        ['plain', undefined],
      ].sort(),
    );
  });

  it('the name printed for a cut id reopens its session', async () => {
    const repo = tempRepo();
    const long = 'y'.repeat(300);
    await run(repo, long);
    const listed = (await runMain(['sessions'], { cwd: repo })).stdout;
    const name = /\((s-[0-9a-f]{64})\)/.exec(listed)?.[1];
    expect(name).toBe(threadIdFor(long));
    await run(repo, name!, 'again');
    const rows = JSON.parse((await runMain(['sessions', '--json'], { cwd: repo })).stdout) as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: long, thread: name });
    expect(rows[0]!.facts).toBeGreaterThan(4);
  });

  it('an id with control characters is shown inert, with its log name, never as raw escapes', async () => {
    const repo = tempRepo();
    const id = 'a\u001b[2Jb\nc';
    await run(repo, id);
    const text = (await runMain(['sessions'], { cwd: repo })).stdout;
    expect(text).not.toContain('\u001b');
    expect(text).toContain(`ab^Jc (${threadIdFor(id)})`);
  });

  it('the id is recorded beside the log when it is opened; a file that names another id is not believed', async () => {
    const repo = tempRepo();
    await run(repo, 'fix bug');
    const logs = join(repo, '.a3s', 'effect-log');
    const idFile = join(logs, `${threadIdFor('fix bug')}.id`);
    expect(readFileSync(idFile, 'utf8')).toBe('fix bug');
    // Safe ids name their logs themselves: nothing beside them.
    await run(repo, 'plain');
    expect(existsSync(join(logs, 'plain.id'))).toBe(false);
    writeFileSync(idFile, 'someone else');
    const rows = JSON.parse((await runMain(['sessions', '--json'], { cwd: repo })).stdout) as Row[];
    expect(rows.map((r) => r.id).sort()).toEqual(['plain', threadIdFor('fix bug')].sort());
  });
});
