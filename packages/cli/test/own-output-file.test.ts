// `a3s run … > run.log` (or `… 2>&1 | tee run.log`) inside the workspace: the run's own output
// file grows while the model's commands run, and is not counted as a change they made (a run
// that only read completes), with one note naming it. A command that writes into that file past
// what the run wrote, or replaces it, still changed it. Through the real executable, in a shell.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, TEST_A3S_HOME, scriptFile, tempRepo } from './kit.js';

/** Runs `a3s run` in `dir` through `sh -c`, its output sent as `redirect` says; returns the exit status and the file's text. */
function run(dir: string, command: string, redirect: string): { status: number | null; log: string } {
  const model = scriptFile([
    { text: 'Looking.', tool_calls: [{ id: 'b1', name: 'bash', args: { command } }] },
    { text: 'The range ends before its end.' },
  ]);
  const env: Record<string, string | undefined> = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete env.A3S_MODEL;
  const r = spawnSync(
    'sh',
    ['-c', `"$0" "$1" run --yolo --model "$2" 'look at src' ${redirect}`, process.execPath, A3S, `scripted:${model}`],
    { cwd: dir, env, encoding: 'utf8', timeout: 20_000 },
  );
  return { status: r.status, log: readFileSync(join(dir, 'run.log'), 'utf8') };
}

/** The paths of the change record of the session's bash call. */
function recorded(dir: string): string[] {
  const logs = join(dir, '.a3s', 'effect-log');
  const text = readdirSync(logs)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(join(logs, f), 'utf8'))
    .join('');
  return [...text.matchAll(/"change_record":\[([^\]]*)\]/g)].flatMap((m) =>
    [...m[1]!.matchAll(/"path":"([^"]*)"/g)].map((p) => p[1]!),
  );
}

// A command that prints for a while: the run writes its output meanwhile.
const READ = 'for i in 1 2 3; do echo "line $i"; sleep 0.2; done; cat src/range.js';

describe.skipIf(process.platform !== 'linux')("the run's own output file in the workspace", () => {
  it.each([
    ['stdout and stderr into a file', '> run.log 2>&1', 'this process'],
    ['stdout and stderr through tee', '2>&1 | tee run.log > /dev/null', 'tee (pid'],
  ])("%s: not a change of the model's commands; named once", (_how, redirect, writer) => {
    const dir = tempRepo();
    const { status, log } = run(dir, READ, redirect);
    expect(status, log).toBe(0);
    expect(log).toContain('The range ends before its end.');
    const notes = log.split('\n').filter((l) => l.startsWith('note: "run.log" is this command\'s own output'));
    expect(notes, log).toHaveLength(1);
    expect(notes[0]).toContain(writer);
    expect(recorded(dir)).toEqual([]);
  });

  it.each([
    ['appends to it', 'echo forged >> run.log; sleep 0.2'],
    ['replaces it', 'rm run.log && echo other > run.log; sleep 0.2'],
  ])('a command that %s still changed it', (_what, command) => {
    const dir = tempRepo();
    const { status } = run(dir, command, '> run.log 2>&1');
    expect(recorded(dir)).toEqual(['run.log']);
    // The run changed the workspace and verified nothing: it does not complete.
    expect(status).toBe(1);
  });
});
