// A log with one damaged line: `a3s replay` and `a3s run --session` say which file and line, that
// the runtime never rewrites a log, and how to keep the intact lines before it; `a3s replay --json`
// ends its stdout with an `a3s_error` line, as `a3s run --json` does. The suggested commands work.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

/** A workspace with session `s1` whose third log line is damaged; returns the folder and the log. */
async function damaged(): Promise<{ dir: string; log: string; model: string }> {
  const dir = tempRepo();
  const model = `scripted:${scriptFile([{ text: 'Done.' }, { text: 'Again.' }])}`;
  expect((await runMain(['run', '--model', model, '--cwd', dir, '--session', 's1', 'go'])).status).toBe(0);
  const log = join(dir, '.a3s', 'effect-log', 's1.jsonl');
  const lines = readFileSync(log, 'utf8').split('\n');
  lines[2] = '{not json';
  writeFileSync(log, lines.join('\n'));
  return { dir, log, model };
}

describe('a damaged line in a log', () => {
  it('replay and run name the file and line, and how to keep the lines before it', async () => {
    const { dir, log, model } = await damaged();
    const hint = `hint: line 3 of ${log} is damaged; a3s never rewrites a log (it only appends), so it stays so. Lines 1 to 2 before it are intact: to keep them, copy the log aside and cut it before the damaged line (cp ${log} ${log}.damaged && head -n 2 ${log}.damaged > ${log} && rm -f ${log}.seal; what came after it stays only in the copy, and the seal, which records what the session wrote, would refuse the shorter log)`;
    const replay = await runMain(['replay', '--cwd', dir, 's1']);
    expect(replay.status).toBe(1);
    expect(replay.stderr).toContain(`${hint}\n`);
    const run = await runMain(['run', '--json', '--model', model, '--cwd', dir, '--session', 's1', 'more']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${hint}; or start a new session by leaving out --session\n`);
    expect(JSON.parse(run.stdout)).toMatchObject({
      type: 'a3s_error',
      code: 'FACT_PARSE',
      hints: [expect.stringContaining(`line 3 of ${log} is damaged`)],
    });
    // What the hint says to do works: the session goes on from the intact lines.
    execSync(`cp ${log} ${log}.damaged && head -n 2 ${log}.damaged > ${log} && rm -f ${log}.seal`);
    expect((await runMain(['run', '--model', model, '--cwd', dir, '--session', 's1', 'more'])).status).toBe(0);
  });

  it('replay --json ends its stdout with an a3s_error line, as run --json does', async () => {
    const { dir, log } = await damaged();
    const r = await runMain(['replay', '--json', '--cwd', dir, 's1']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      type: 'a3s_error',
      code: 'FACT_PARSE',
      message: expect.stringContaining('line 3'),
      hints: [expect.stringContaining(`line 3 of ${log} is damaged`)],
      exit_code: 1,
    });
  });
});
