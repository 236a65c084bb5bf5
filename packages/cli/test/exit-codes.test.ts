// The exit-code table of the cli README (0 completed, 1 run failed, 2 usage or configuration
// error, 3 parked, 4 session in use, 130 interrupted), every error printed once on stderr; parked sessions in
// `a3s sessions`, replay of a folder, cost beside tokens, and a scripted model named by the config
// file. Through `main(argv, io)` in process.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { FIX_TURNS, promptsLogged, runMain, scriptFile, tempRepo } from './kit.js';

const once = (stderr: string, needle: string): void => {
  expect(stderr.split(needle).length - 1, stderr).toBe(1);
};

describe('exit codes', () => {
  it('the table: 0 completed, 1 run failed, 2 usage, 3 parked, 4 session in use, 130 interrupted, 129 terminal closed, 143 terminated', () => {
    expect(EXIT).toEqual({
      ok: 0,
      failed: 1,
      usage: 2,
      parked: 3,
      locked: 4,
      cancelled: 130,
      hangup: 129,
      terminated: 143,
    });
  });

  it('0 completed, 3 parked, 1 run failed (the error printed once, on stderr)', async () => {
    const dir = tempRepo();
    expect(
      await runMain(['run', '--yolo', '--model', `scripted:${scriptFile([{ text: 'Hello.' }])}`, '--cwd', dir, 'hi']),
    ).toMatchObject({ status: 0, stderr: '' });
    expect(
      await runMain(['run', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, 'fix it']),
    ).toMatchObject({ status: 3, stderr: '' });
    const turns = [FIX_TURNS[0], { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }];
    for (const json of [[], ['--json']]) {
      const failed = await runMain([
        'run',
        ...json,
        '--yolo',
        '--model',
        `scripted:${scriptFile(turns)}`,
        '--cwd',
        tempRepo(),
        'fix it',
      ]);
      expect(failed.status).toBe(1);
      once(failed.stderr, 'the run changed the workspace but cannot complete');
      if (json.length === 0) expect(failed.stdout).not.toContain('cannot complete');
    }
  });

  it('a parked run with --json keeps stdout to events and says on stderr how to go on', async () => {
    const dir = tempRepo();
    const r = await runMain(['run', '--json', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, 'fix it']);
    expect(r.status).toBe(3);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.at(-1)?.type).toBe('confirmation_required');
    expect(r.stderr).toMatch(
      /^a3s run: parked \(session session-[0-9a-f-]+\); continue it with: a3s sessions --resume session-[0-9a-f-]+ --cwd .+ \(or rerun with --yolo\)\n$/,
    );
  });

  it('130 when the run is interrupted; 0 when the reader of stdout went away', async () => {
    const dir = tempRepo();
    const slow = () => scriptFile([{ delay_ms: 10_000, text: 'never' }]);
    const pending = runMain(['run', '--model', `scripted:${slow()}`, '--cwd', dir, 'wait']);
    await promptsLogged(dir, 1);
    process.emit('SIGINT', 'SIGINT');
    expect(await pending).toMatchObject({ status: 130 });
    const closed = new AbortController();
    const piped = runMain(['run', '--json', '--model', `scripted:${slow()}`, '--cwd', dir, 'wait'], {
      stdoutClosed: closed.signal,
    });
    await promptsLogged(dir, 2);
    closed.abort();
    expect(await piped).toMatchObject({ status: 0, stderr: '' });
  });

  it('2 for every usage or configuration error, printed once', async () => {
    const ws = tempRepo();
    const missing = join(ws, 'missing');
    const cases: [string[], string][] = [
      [['sessions', '--cwd', missing], 'is not a folder'],
      [['replay', '--cwd', missing, 'x'], 'is not a folder'],
      [['tools', '--cwd', missing], 'is not a folder'],
      [['models', '--cwd', missing], 'is not a folder'],
      [['init', '--cwd', missing], 'is not a folder'],
      [['run', '--cwd', ws, '--model', 'scripted:', 'hi'], 'scripted: needs the script file'],
      [['run', '--cwd', ws, '--model', 'scripted:  ', 'hi'], 'scripted: needs the script file'],
      [['run', '--cwd', ws, '--model', `scripted:${join(ws, 'nope.json')}`, 'hi'], 'no such script file'],
      [['run', '--cwd', ws, 'hi'], 'MODEL_NOT_CONFIGURED'],
      [['tools', '--bogus'], "'--bogus'"],
      [['frobnicate'], "unknown command 'frobnicate'"],
    ];
    for (const [args, needle] of cases) {
      const r = await runMain(args);
      expect(r.status, args.join(' ')).toBe(2);
      once(r.stderr, needle);
    }
  });

  it('a flag with no command (a3s --nope) names a3s code as the reader and lists the commands; a --model value ending in a colon is quoted', async () => {
    const ws = tempRepo();
    const r = await runMain(['--nope', '--cwd', ws]);
    expect(r.status).toBe(2);
    once(r.stderr, "unknown option '--nope'");
    expect(r.stderr).toMatch(/^hint: a3s with no command runs a3s code; the commands are code, run, .*version, help/m);
    const colon = await runMain(['run', '--cwd', ws, '--model', 'scripted::', 'hi']);
    expect(colon.status).toBe(2);
    once(colon.stderr, "--model 'scripted::': no such script file");
    const explicit = await runMain(['run', '--nope', '--cwd', ws, 'hi']);
    expect(explicit.stderr).not.toMatch(/hint: a3s with no command/);
  });

  it('BUILD-08: 2 for a config file with a JSON syntax error, naming file, line and column', async () => {
    const ws = tempRepo();
    writeFileSync(
      join(ws, 'a3s.config.json'),
      '{\n  "permissions": { "deny": ["bash"] },\n  "model": "openai/gpt-4o",,\n}\n',
    );
    for (const command of ['tools', 'run', 'models']) {
      const r = await runMain([command, '--cwd', ws, ...(command === 'run' ? ['hi'] : [])]);
      expect(r.status, command).toBe(2);
      once(
        r.stderr,
        `is not valid JSON (in ${join(ws, 'a3s.config.json')}:3:28): expected a double-quoted property name, found ','`,
      );
    }
  });

  it('2 for MCP config errors, in every command that opens a session', async () => {
    const ws = tempRepo();
    writeFileSync(
      join(ws, 'a3s.config.json'),
      JSON.stringify({ mcpServers: { gh: { command: 'gh-mcp', timeoutMs: 'soon' } } }),
    );
    const model = `scripted:${scriptFile([{ text: 'hi' }])}`;
    for (const args of [['tools'], ['run', '--model', model, 'hi']]) {
      const r = await runMain([...args, '--cwd', ws]);
      expect(r.status, args[0]).toBe(2);
      once(r.stderr, 'MCP_CONFIG');
    }
  });
});

describe('sessions, replay and cost', () => {
  it('parked sessions are listed as parked (confirm) / parked (question)', async () => {
    const dir = tempRepo();
    expect(
      await runMain(['run', '--session', 'c1', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, 'fix it']),
    ).toMatchObject({ status: 3 });
    const ask = [
      {
        tool_calls: [
          {
            id: 'q1',
            name: 'ask_user',
            args: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }] },
          },
        ],
      },
    ];
    expect(
      await runMain(['run', '--session', 'q1', '--model', `scripted:${scriptFile(ask)}`, '--cwd', dir, 'ask me']),
    ).toMatchObject({ status: 3 });
    const text = (await runMain(['sessions', '--cwd', dir])).stdout;
    expect(text).toMatch(/^c1 .*1 run\(s\), last parked \(confirm\),/m);
    expect(text).toMatch(/^q1 .*1 run\(s\), last parked \(question\),/m);
    const list = JSON.parse((await runMain(['sessions', '--json', '--cwd', dir])).stdout) as {
      id: string;
      last: string;
    }[];
    expect(list.map((s) => [s.id, s.last]).sort()).toEqual([
      ['c1', 'parked (confirm)'],
      ['q1', 'parked (question)'],
    ]);
  });

  it('replay <folder> replays its newest log, and names the folder it looked in when there is none', async () => {
    const dir = tempRepo();
    const empty = mkdtempSync(join(tmpdir(), 'a3s-empty-'));
    const none = await runMain(['replay', empty]);
    expect(none).toMatchObject({ status: 2 });
    expect(none.stderr).toBe(`a3s replay: no fact logs in ${join(empty, '.a3s', 'effect-log')}\n`);
    const unknown = await runMain(['replay', '--cwd', dir, 'no/such session']);
    expect(unknown.stderr).toContain(`no session 'no/such session' in ${join(dir, '.a3s', 'effect-log')}`);
    expect(unknown.stderr).not.toMatch(/s-[0-9a-f]{16}/);
    await runMain([
      'run',
      '--session',
      'r1',
      '--yolo',
      '--model',
      `scripted:${scriptFile([{ text: 'Hi.' }])}`,
      '--cwd',
      dir,
      'hi',
    ]);
    for (const arg of [dir, join(dir, '.a3s'), join(dir, '.a3s', 'effect-log')]) {
      const r = await runMain(['replay', arg]);
      expect(r, arg).toMatchObject({ status: 0, stderr: '' });
      expect(r.stdout).toContain(`replay of ${join(dir, '.a3s', 'effect-log', 'r1.jsonl')}`);
    }
  });

  it('cost beside tokens in the run summary and in replay, when the config prices the model', async () => {
    const dir = tempRepo();
    const script = join(mkdtempSync(join(tmpdir(), 'a3s-priced-')), 'm.json');
    writeFileSync(
      script,
      JSON.stringify({
        model: 'cheap',
        turns: [{ text: 'Hi.', usage: { input_tokens: 200_000, output_tokens: 10_000 } }],
      }),
    );
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ pricing: { 'scripted/cheap': { inputPerMTok: 3, outputPerMTok: 15 } } }),
    );
    const run = await runMain(['run', '--session', 'p1', '--model', `scripted:${script}`, '--cwd', dir, 'hi']);
    expect(run.stdout).toContain('200000 in / 10000 out tokens · $0.7500');
    const replay = await runMain(['replay', '--cwd', dir, 'p1']);
    expect(replay.stdout).toContain('cost: $0.7500 (scripted/cheap $0.7500)');
    const json = JSON.parse(
      (await runMain(['replay', '--json', join(dir, '.a3s', 'effect-log', 'p1.jsonl')])).stdout,
    ) as { cost: unknown };
    expect(json.cost).toEqual({ total: 0.75, by_model: { 'scripted/cheap': 0.75 }, unpriced: [] });
    // No price for the model: tokens only.
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ pricing: { 'openai/gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 } } }),
    );
    const unpriced = await runMain(['run', '--model', `scripted:${script}`, '--cwd', dir, 'hi']);
    expect(unpriced.stdout).toMatch(/10000 out tokens\n/);
    expect((await runMain(['replay', '--cwd', dir, 'p1'])).stdout).not.toContain('cost:');
  });

  it('model "scripted:<file>" in a3s.config.json, relative to the config file folder', async () => {
    const dir = tempRepo();
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'hello.json'), JSON.stringify({ turns: [{ text: 'Hello from the config.' }] }));
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ model: 'scripted:scripts/hello.json' }));
    const elsewhere = mkdtempSync(join(tmpdir(), 'a3s-elsewhere-'));
    // A model in a folder's config file is used once the folder is trusted.
    const r = await runMain(['run', '--trust-workspace', '--cwd', dir, 'hi'], { cwd: elsewhere });
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toContain('Hello from the config.');
  });
});
