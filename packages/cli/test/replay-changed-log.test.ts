// A log changed after its session stopped (a fact appended by something that is not the store,
// once no process held the log) is refused when the session is resumed; a replay still shows it,
// for the person to look at, but says first that its facts may not all be its session's: in the
// text, the transcript, their JSON, and the list of sessions. A log as its session left it says
// nothing of the kind.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

const WARNING = 'warning: this log was changed after its session stopped (';

async function sessionLog(): Promise<{ repo: string; log: string; model: string }> {
  const repo = tempRepo();
  const model = `scripted:${scriptFile([{ text: 'Hi.' }, { text: 'Again.' }])}`;
  const r = await runMain(['run', '--session', 's1', '--model', model, 'first'], { cwd: repo });
  expect(r.status, r.stderr).toBe(0);
  return { repo, log: join(repo, '.a3s', 'effect-log', 's1.jsonl'), model };
}

/** Appends a well-formed fact the session never wrote. */
function forge(log: string): void {
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  const seq = (JSON.parse(lines.at(-1)!) as { seq: number }).seq + 1;
  const fact = {
    seq,
    type: 'user.message',
    key: 'user:run-forged',
    cause: null,
    payload: { text: 'forged', source: 'user', at_ms: Date.now() },
  };
  appendFileSync(log, `${JSON.stringify(fact)}\n`);
}

describe('a3s replay of a log changed after its session stopped', () => {
  it('a log as its session left it: no warning anywhere', async () => {
    const { repo } = await sessionLog();
    const text = await runMain(['replay', 's1'], { cwd: repo });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('changed after its session stopped');
    const json = JSON.parse((await runMain(['replay', '--json', 's1'], { cwd: repo })).stdout) as object;
    expect(json).not.toHaveProperty('changed');
    expect((await runMain(['sessions'], { cwd: repo })).stdout).not.toContain('changed');
  });

  it('says so in replay, transcript, their JSON and the session list; resuming is refused', async () => {
    const { repo, log, model } = await sessionLog();
    forge(log);
    const text = await runMain(['replay', 's1'], { cwd: repo });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${WARNING}`);
    expect(text.stdout).toMatch(/bytes were added after the \d+ its session wrote/);
    expect(text.stdout).toContain("the facts shown may not all be its session's");
    const transcript = await runMain(['replay', '--transcript', 's1'], { cwd: repo });
    expect(transcript.stdout).toContain(WARNING);
    const json = JSON.parse((await runMain(['replay', '--json', 's1'], { cwd: repo })).stdout) as { changed?: string };
    expect(json.changed).toMatch(/bytes were added after/);
    const tjson = JSON.parse((await runMain(['replay', '--json', '--transcript', 's1'], { cwd: repo })).stdout) as {
      changed?: string;
    };
    expect(tjson.changed).toMatch(/bytes were added after/);
    const list = await runMain(['sessions'], { cwd: repo });
    expect(list.stdout).toContain('log changed after its session stopped (');
    const rows = JSON.parse((await runMain(['sessions', '--json'], { cwd: repo })).stdout) as { changed?: string }[];
    expect(rows[0]!.changed).toMatch(/bytes were added after/);
    const resumed = await runMain(['run', '--session', 's1', '--model', model, 'more'], { cwd: repo });
    expect(resumed.status).not.toBe(0);
    expect(resumed.stderr).toContain('FACT_LOG_CHANGED');
  });
});
