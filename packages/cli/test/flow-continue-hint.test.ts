// A workflow run is continued only by the session that started it (`WORKFLOW_RUN_FOREIGN`
// otherwise). The hint `/ultracode` prints says how to continue it from a new process: reopen that
// session (`a3s sessions --resume <id> …`), then `/ultracode --run <id> <the same text>`. Here the
// first `a3s code` crashes (SIGKILL) mid-flow, and the printed hint, followed literally in a new
// process, continues the run with its finished step recovered.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from './io-harness.js';
import { A3S, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

const TASK = 'make range include its end';
const PLAN = {
  summary: 'Make range include its end.',
  tasks: [{ title: 'fix range', instructions: 'In src/range.js make the loop include end.' }],
  verification: 'node --test',
};

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete e.A3S_MODEL;
  return e;
}

/** Runs a printed `a3s …` command line through a shell, as a person would paste it, with `input` typed. */
function paste(line: string, cwd: string, input: string) {
  expect(line.startsWith('a3s ')).toBe(true);
  const command = `'${process.execPath}' '${A3S}' ${line.slice('a3s '.length)}`;
  const r = spawnSync('sh', ['-c', command], { cwd, env: env(), input, encoding: 'utf8', timeout: 40_000 });
  return `${r.stdout}${r.stderr}`;
}

describe('a3s code: continuing a workflow run after a crash', () => {
  it('the hint /ultracode prints, followed in a new process, reopens its session and recovers the finished steps', async () => {
    const dir = tempRepo();
    const startedIn = mkdtempSync(join(tmpdir(), 'a3s-started-'));
    const script = scriptFile([
      { tool_calls: [{ id: 'p1', name: 'plan', args: PLAN }] },
      // The sub-agent's command marks that it runs, then hangs until the process is killed.
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch STARTED && sleep 20' } }] },
    ]);
    const child = spawn(process.execPath, [A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir, '--yolo'], {
      cwd: startedIn,
      env: env(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = new Promise((ok) => child.once('exit', ok));
    await until(
      () => out.includes('type a prompt'),
      () => out,
    );
    child.stdin.write(`/ultracode ${TASK}\n`);
    await until(
      () => existsSync(join(dir, 'STARTED')),
      () => out,
      20_000,
    );
    child.kill('SIGKILL');
    await exited;
    const hint =
      /\(if it is interrupted: \/resume continues it; from a new process: (.+), then \/ultracode --run (wf-\S+) <the same text>\)/.exec(
        out,
      );
    expect(hint, out).not.toBeNull();
    const [, reopen, runId] = hint!;
    const session = /session (\S+)\n/.exec(out)?.[1];
    expect(reopen).toBe(`a3s sessions --resume ${session} --cwd ${dir} --model scripted:${script}`);
    // The model has nothing more to say this time: the continued run recovers the plan, then stops.
    writeFileSync(script, JSON.stringify({ turns: [] }));
    const again = `/ultracode --run ${runId} ${TASK}\n/exit\n`;
    // In a new session, the run is another's: refused before any step runs.
    const foreign = paste(`a3s code --cwd ${dir} --model scripted:${script}`, startedIn, again);
    expect(foreign).toContain('WORKFLOW_RUN_FOREIGN');
    expect(foreign).not.toContain('↺ plan');
    // Followed as printed, the session that started it is reopened and the run continues; its
    // finished steps are recovered under the rules they ran under (the hint leaves --yolo to the person).
    const continued = paste(`${reopen!} --yolo`, startedIn, again);
    expect(continued).not.toContain('WORKFLOW_RUN_FOREIGN');
    expect(continued).toContain(`workflow ultracode · run ${runId}`);
    expect(continued).toContain('↺ plan (recovered from the earlier attempt)');
    expect(continued).toMatch(/ultracode failed · \d+ step\(s\) run, 1 recovered/);
  }, 90_000);
});
