// The line `a3s run` prints when a run parks (exit 3) or is interrupted (130): a command that
// continues the session as it is, with the model named on the command line, quoted for a shell.
// And `-` (the prompt from stdin) among other prompt words: a usage error, not prompt text.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggedPrompts, promptsLogged, runMain, scriptFile, tempRepo } from './kit.js';

const WRITE_TURN = {
  text: 'Writing it.',
  tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'a.txt', content: 'x' } }],
};

describe('a3s run: how to continue a run', () => {
  it('a parked run names the --model it ran with, quoted for a shell', async () => {
    const dir = tempRepo();
    const file = join(mkdtempSync(join(tmpdir(), 'a3s-script-')), "it's model.json");
    writeFileSync(file, JSON.stringify({ turns: [WRITE_TURN] }));
    const r = await runMain(['run', '--model', `scripted:${file}`, '--cwd', dir, 'write it'], { cwd: dir });
    expect(r.status).toBe(3);
    const line = r.stdout.split('\n').find((l) => l.startsWith('continue it with:'));
    expect(line).toBe(
      `continue it with: a3s sessions --resume ${/session: (\S+)/.exec(r.stdout)?.[1]} --model 'scripted:${file.replace("'", "'\\''")}' (or rerun with --yolo)`,
    );
    // The same file would replay the run from its first turn: the line after says so.
    expect(r.stdout).toContain(
      '(a scripted model plays its file from the first turn in each process: continue with a script of the turns still to come)',
    );
  });

  it('a scripted model given by a relative path is named by its absolute path, so the line works from any folder', async () => {
    const dir = tempRepo();
    const started = mkdtempSync(join(tmpdir(), 'a3s-started-'));
    const file = join(started, 'script', 'model.json');
    mkdirSync(join(started, 'script'));
    writeFileSync(file, JSON.stringify({ turns: [WRITE_TURN] }));
    const r = await runMain(['run', '--model', 'scripted:script/model.json', '--cwd', dir, 'write it'], {
      cwd: started,
    });
    expect(r.status).toBe(3);
    const line = r.stdout.split('\n').find((l) => l.startsWith('continue it with:'));
    expect(line).toBe(
      `continue it with: a3s sessions --resume ${/session: (\S+)/.exec(r.stdout)?.[1]} --cwd ${dir} --model scripted:${file} (or rerun with --yolo)`,
    );
  });

  it('a model that came from the config file or A3S_MODEL is not repeated', async () => {
    const dir = tempRepo();
    const r = await runMain(['run', '--cwd', dir, 'write it'], {
      cwd: dir,
      env: { A3S_MODEL: `scripted:${scriptFile([WRITE_TURN])}` },
    });
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^continue it with: a3s sessions --resume session-[0-9a-f-]+ \(or rerun with --yolo\)$/m);
  });

  it('an interrupted run says how to continue it too (stdout, and stderr with --json)', async () => {
    for (const json of [[], ['--json']]) {
      const dir = tempRepo();
      const slow = scriptFile([{ delay_ms: 10_000, text: 'never' }]);
      const pending = runMain(['run', ...json, '--model', `scripted:${slow}`, '--cwd', dir, 'wait']);
      await promptsLogged(dir, 1);
      process.emit('SIGINT', 'SIGINT');
      const r = await pending;
      expect(r.status).toBe(130);
      const hint = `continue it with: a3s sessions --resume session-[0-9a-f-]+ --cwd \\S+ --model scripted:\\S+, then type /resume`;
      if (json.length === 0) expect(r.stdout).toMatch(new RegExp(`^${hint}$`, 'm'));
      else
        expect(r.stderr).toMatch(new RegExp(`^a3s run: interrupted \\(session session-[0-9a-f-]+\\); ${hint}$`, 'm'));
    }
  });
});

describe('a3s run: a run stopped at the tool budget', () => {
  it('says so and how to go on, not only "completed"', async () => {
    const dir = tempRepo();
    const reads = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, name: 'ls', args: { path: '.' } }));
    const model = `scripted:${scriptFile([{ text: 'Listing.', tool_calls: reads }, { text: 'never asked' }])}`;
    const r = await runMain(['run', '--model', model, '--cwd', dir, 'list ten times'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^completed \(narrative\) · 8 tool call\(s\)/m);
    expect(r.stdout).toContain('stopped: the tool budget of this turn is used up (`toolBudget` in a3s.config.json');
    expect(r.stdout).toMatch(/^continue it with: a3s sessions --resume session-[0-9a-f-]+ .*, then say how to go on$/m);
  });
});

describe('a3s run: a run stopped at the tool-round cap', () => {
  it('BUD-09: a model that keeps asking for tools ends the run cleanly, says so and how to go on', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ maxToolRounds: 1 }));
    const again = (i: number) => ({ text: 'again', tool_calls: [{ id: `l${i}`, name: 'ls', args: { path: '.' } }] });
    const model = `scripted:${scriptFile(Array.from({ length: 40 }, (_, i) => again(i)))}`;
    const r = await runMain(['run', '--model', model, '--cwd', dir, 'loop'], { cwd: dir });
    expect(r.stderr).not.toContain('STEP_LIMIT');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^completed \(narrative\) · 1 tool call\(s\)/m);
    expect(r.stdout).toContain(
      'stopped: the tool-round cap of this turn is reached (`maxToolRounds` in a3s.config.json)',
    );
    expect(r.stdout).toMatch(/^continue it with: a3s sessions --resume session-[0-9a-f-]+ .*, then say how to go on$/m);
  });
});

describe("a3s run: an answer stopped at the model's output limit", () => {
  it('says it may end mid-sentence and how to go on; --json says so on stderr', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'The causes are: first, the', finish: 'length' }])}`;
    const r = await runMain(['run', '--model', model, '--cwd', dir, 'explain'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "stopped: the model's answer reached its output-token limit and may end mid-sentence (raise `providers.<id>.maxOutputTokens` in a3s.config.json, or ask it to go on)",
    );
    expect(r.stdout).toMatch(/^continue it with: a3s sessions --resume session-[0-9a-f-]+ .*, then say how to go on$/m);
    const json = await runMain(['run', '--json', '--model', model, '--cwd', dir, 'explain'], { cwd: dir });
    expect(json.status, json.stderr).toBe(0);
    expect(json.stderr).toMatch(
      /^a3s run: stopped at the model's output-token limit \(session session-[0-9a-f-]+\); continue it with: /m,
    );
    const whole = `scripted:${scriptFile([{ text: 'All of it.' }])}`;
    const plain = await runMain(['run', '--model', whole, '--cwd', dir, 'explain'], { cwd: dir });
    expect(plain.stdout).not.toContain('stopped:');
    expect(plain.stdout).not.toContain('continue it with');
  });
});

describe("a3s run: the continue line keeps the run's modes", () => {
  it('a run interrupted in plan mode (and vibe mode) is continued in them', async () => {
    const dir = tempRepo();
    const slow = scriptFile([{ delay_ms: 10_000, text: 'never' }]);
    const pending = runMain(['run', '--plan', '--vibe', '--model', `scripted:${slow}`, '--cwd', dir, 'wait']);
    await promptsLogged(dir, 1);
    process.emit('SIGINT', 'SIGINT');
    const r = await pending;
    expect(r.status).toBe(130);
    expect(r.stdout).toMatch(
      /^continue it with: a3s sessions --resume \S+ --cwd \S+ --model \S+ --plan --vibe, then type \/resume$/m,
    );
  });
});

describe('a3s run -: the prompt from stdin', () => {
  it("'-' with other prompt words is a usage error, and nothing runs", async () => {
    for (const words of [
      ['-', 'extra'],
      ['extra', '-'],
    ]) {
      const dir = tempRepo();
      const r = await runMain(['run', '--model', `scripted:${scriptFile([{ text: 'Hi.' }])}`, '--cwd', dir, ...words]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("'-' (read the prompt from stdin) must be the only prompt argument");
      expect(loggedPrompts(dir)).toBe(0);
    }
  });
});
