// A new user's first contact with `a3s`: a mistyped command, a model that is not set up, a wrong
// `--model`, a value that starts with a dash, a file that is no fact log, a config path that is
// a folder. Each is named on stderr with what is allowed and the next step, exit 2 for usage and
// configuration (1 for a damaged log), no stack trace. Mostly in process through `main`; the
// offline path end to end through the real executable.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlmError, SessionInitializationError } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { hintsFor, SCRIPTED_EXAMPLE } from '../src/hints.js';
import { A3S, runMain, scriptFile, tempRepo } from './kit.js';

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);
const empty = () => mkdtempSync(join(tmpdir(), 'a3s-first-'));

/** The process environment without any model or provider variable. */
function bareEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(A3S_MODEL|[A-Z]+_API_KEY|[A-Z]+_BASE_URL)$/.test(k)) env[k] = v;
  return env;
}

describe('commands a new user mistypes', () => {
  it('an unknown command names the close one, or how to run a prompt', async () => {
    const dir = empty();
    for (const [args, message] of [
      [['rum'], /^a3s: unknown command 'rum'; expected one of code, run, .* \(did you mean 'run'\?\)\n$/],
      [['sesions'], /\(did you mean 'sessions'\?\)\n$/],
      [['fix the bug'], /; to run a prompt: a3s run "fix the bug" \(or a3s code, then type it\)\n$/],
      [['zzz'], /^a3s: unknown command 'zzz'; expected one of [a-z, ]+\n$/],
      [['fix', 'the', 'bug'], /^a3s: unknown command 'fix'; .*; to run a prompt: a3s run "fix the bug" \(or a3s/],
      [['rnu', 'fix', 'it'], /\(did you mean 'run'\?\)\n$/],
      [['zzz', '--json'], /^a3s: unknown command 'zzz'; expected one of [a-z, ]+\n$/],
      [['\u001b]0;pwned\u0007red'], /^a3s: unknown command 'red'; expected one of [a-z, ]+\n$/],
    ] as const) {
      const r = await runMain([...args], { cwd: dir });
      expect(r.status, args[0]).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('an unknown flag names the close one', async () => {
    for (const [args, hint] of [
      [['run', '--jsno', 'x'], "unknown option '--jsno' (did you mean --json?); a3s run takes --model <value>"],
      [['tools', '--modle', 'x'], "unknown option '--modle' (did you mean --model?); a3s tools takes"],
    ] as const) {
      const r = await runMain([...args], { cwd: empty() });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(hint);
    }
    expect((await runMain(['run', '--zzzzzz', 'x'])).stderr).not.toContain('did you mean');
  });

  it('a3s help <command> is its --help; a3s version --help answers', async () => {
    const help = await runMain(['help', 'run']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: a3s run \[options\] "<prompt>"/);
    const version = await runMain(['version', '--help']);
    expect([version.status, version.stdout]).toEqual([0, expect.stringMatching(/^Usage: a3s version/)]);
    expect((await runMain(['help', 'nope'])).status).toBe(2);
  });

  it('a value that starts with a dash is named, with the way to pass it; conflicting flags and an empty --cwd are refused', async () => {
    const dir = empty();
    const serve = await runMain(['serve', '--max-message-bytes', '-5'], { cwd: dir });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toBe(
      "a3s serve: --max-message-bytes -5: the value starts with a dash, so it reads as a flag; write --max-message-bytes=-5 if you mean it; see 'a3s serve --help'\n",
    );
    const short = await runMain(['run', '-m', '-x', 'hi'], { cwd: dir });
    expect([short.status, short.stderr]).toEqual([2, expect.stringMatching(/^a3s run: --model -x: the value starts/)]);
    const both = await runMain(['sessions', '--resume', 'x', '--json'], { cwd: dir });
    expect([both.status, both.stderr]).toEqual([
      2,
      'a3s sessions: --json and --resume cannot be used together: --json prints the list, --resume reopens one session interactively\n',
    ]);
    const cwd = await runMain(['run', '--cwd=', 'hi'], { cwd: dir });
    expect([cwd.status, cwd.stderr]).toEqual([
      2,
      'a3s run: --cwd: needs a folder, e.g. --cwd ./my-project (default: the current folder)\n',
    ]);
  });
});

describe('a wrong --model is named before anything opens', () => {
  it('syntax, provider, a missing script, a folder as script; in run, tools, models and init', async () => {
    const dir = empty();
    mkdirSync(join(dir, 'scripts'));
    const allowed = "allowed: <provider>/<model> (the providers: 'a3s models') or scripted:<file.json>";
    const cases: [string[], string][] = [
      [['run', '--model', 'gpt-4o', 'hi'], `a3s run: --model gpt-4o: expected 'provider/model'`],
      [['run', '--model', 'foo/bar', 'hi'], 'a3s run: --model foo/bar: unknown provider "foo"; allowed: openai, '],
      [
        ['run', '--model', 'scripted:nope.json', 'hi'],
        `--model scripted:nope.json: no such script file (looked for ${join(dir, 'nope.json')})`,
      ],
      [
        ['run', '--model', 'scripted:scripts', 'hi'],
        '--model scripted:scripts: is a folder; allowed: a JSON script file',
      ],
      [['tools', '--model', 'gpt-4o'], 'a3s tools: --model gpt-4o: expected'],
      [['models', '--model', 'gpt-4o'], `a3s models: --model gpt-4o: expected`],
      [['init', '--model', 'gpt-4o'], `a3s init: --model gpt-4o: expected`],
    ];
    for (const [args, message] of cases) {
      const r = await runMain(args, { cwd: dir });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      if (message.includes('expected')) expect(r.stderr).toContain(allowed);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
    }
    // Nothing was written or logged.
    expect(readdirSync(dir)).toEqual(['scripts']);
  });
});

describe('a wrong A3S_MODEL is named as coming from there', () => {
  it('syntax and a missing script; a config file model wins over it, so it is not even resolved then', async () => {
    const dir = empty();
    for (const [value, message] of [
      ['gpt-4o', "a3s run: A3S_MODEL=gpt-4o: expected 'provider/model' with provider one of openai"],
      [
        'scripted:nope.json',
        `a3s run: A3S_MODEL=scripted:nope.json: no such script file (looked for ${join(dir, 'nope.json')})`,
      ],
    ]) {
      const r = await runMain(['run', 'hi'], { cwd: dir, env: { A3S_MODEL: value! } });
      expect(r.status, value).toBe(2);
      expect(r.stderr.startsWith(message!), r.stderr).toBe(true);
    }
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ turns: [{ text: 'From the file.' }] }));
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ model: 'scripted:model.json' }));
    // Also when A3S_MODEL names a provider whose key is not set.
    for (const value of ['gpt-4o', 'openai/gpt-4o']) {
      const r = await runMain(['run', '--trust-workspace', 'hi'], { cwd: dir, env: { A3S_MODEL: value } });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^From the file\./);
    }
  });
});

describe('a mistyped model names the one it most likely meant', () => {
  it('a misspelt or capitalised provider, a model name without its provider; a3s models says what is wrong with A3S_MODEL', async () => {
    const dir = empty();
    for (const [value, meant] of [
      ['opnai/gpt-4o', 'openai/gpt-4o'],
      ['OpenAI/gpt-4o', 'openai/gpt-4o'],
      ['anthropc/claude-x', 'anthropic/claude-x'],
      ['gpt-4o', 'openai/gpt-4o'],
      ['claude-sonnet-4', 'anthropic/claude-sonnet-4'],
    ]) {
      const flag = await runMain(['run', '--model', value!, 'hi'], { cwd: dir });
      expect(flag.status, value).toBe(2);
      expect(flag.stderr).toContain(`(did you mean '${meant}'?)`);
      const env = await runMain(['run', 'hi'], { cwd: dir, env: { A3S_MODEL: value! } });
      expect(env.status, value).toBe(2);
      expect(env.stderr).toContain(`A3S_MODEL=${value}: `);
      expect(env.stderr).toContain(`(did you mean '${meant}'?)`);
    }
    // Nothing close: no guess.
    const far = await runMain(['run', '--model', 'foo/bar', 'hi'], { cwd: dir });
    expect(far.stderr).not.toContain('did you mean');
    // a3s models shows the table, then what a3s run would say about A3S_MODEL (exit 2).
    const models = await runMain(['models'], { cwd: dir, env: { A3S_MODEL: 'opnai/gpt-4o' } });
    expect(models.status).toBe(2);
    expect(models.stdout).toMatch(/^openai +OPENAI_API_KEY/m);
    expect(models.stdout).toContain(
      `model: opnai/gpt-4o (from A3S_MODEL)\nA3S_MODEL=opnai/gpt-4o: unknown provider "opnai"`,
    );
    const json = await runMain(['models', '--json'], { cwd: dir, env: { A3S_MODEL: 'opnai/gpt-4o' } });
    expect(json.status).toBe(2);
    expect((JSON.parse(json.stdout) as { model: { problem: string } }).model.problem).toContain("'openai/gpt-4o'");
    const good = await runMain(['models'], { cwd: dir, env: { A3S_MODEL: 'openai/gpt-4o', OPENAI_API_KEY: 'sk-x' } });
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('model: openai/gpt-4o (from A3S_MODEL)\n');
    // Spelled right, but its key is not set: a3s run would refuse it, and a3s models says so (exit 2).
    const keyless = await runMain(['models', '--model', 'openai/gpt-4o'], { cwd: dir, env: { OPENAI_API_KEY: '' } });
    expect(keyless.status).toBe(2);
    expect(keyless.stdout).toContain('openai: OPENAI_API_KEY is not set, so a3s run would refuse this model');
    const urlless = await runMain(['models', '--json', '--model', 'vllm/m'], {
      cwd: dir,
      env: {},
    });
    expect(urlless.status).toBe(2);
    expect((JSON.parse(urlless.stdout) as { model: { problem: string } }).model.problem).toMatch(
      /vllm: OPENAI_BASE_URL is not set/,
    );
  });
});

describe('no model, no key, offline', () => {
  it('with no model set, the message speaks CLI, names the variables and a scripted example that works as printed', () => {
    const dir = empty();
    const r = spawnIn(dir, ['run', 'say hello']);
    expect(r.status).toBe(2);
    const [first, ...hints] = r.stderr.trimEnd().split('\n');
    expect(first).toBe(
      'a3s run: MODEL_NOT_CONFIGURED: no model is configured: pass --model <provider>/<model>, put "model" in a3s.config.json (a3s init writes one), or set A3S_MODEL',
    );
    expect(hints).toEqual([
      expect.stringMatching(/^hint: a3s run --model openai\/<model> \(with OPENAI_API_KEY\), .*'a3s models' lists/),
      `hint: to try a3s offline with no key, play back a scripted model: ${SCRIPTED_EXAMPLE} && a3s run --model scripted:model.json "say hello"`,
    ]);
    noStack(r.stderr);
    // The example, as printed: its file, then its command.
    const json = /^echo '(.*)' > model\.json$/.exec(SCRIPTED_EXAMPLE)?.[1];
    writeFileSync(join(dir, 'model.json'), `${json}\n`);
    const offline = spawnIn(dir, ['run', '--model', 'scripted:model.json', 'say hello']);
    expect(offline.status, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(/^Hello from a scripted model\.\ncompleted/);
    // Not a terminal: no colour codes, no redrawn status lines.
    expect(offline.stdout).not.toMatch(/\u001b|\r/);
  });

  it('a provider without its key names the variable to export and the config key that can name another', async () => {
    const r = spawnIn(empty(), ['run', '--model', 'anthropic/claude-sonnet-4-20250514', 'hi']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "ANTHROPIC_API_KEY: is not set; it is required for model 'anthropic/claude-sonnet-4-20250514'",
    );
    expect(r.stderr).toContain(
      'hint: export ANTHROPIC_API_KEY=<your key>, or name the variable that holds it in a3s.config.json: "providers": { "anthropic": { "apiKeyEnv": "<VARIABLE>" } }',
    );
    expect(r.stderr).toContain('hint: to try a3s offline with no key');
    const base = spawnIn(empty(), ['run', '--model', 'vllm/qwen', 'hi']);
    expect(base.status).toBe(2);
    expect(base.stderr).toContain(
      'hint: export OPENAI_BASE_URL=<url>, or set it in a3s.config.json: "providers": { "vllm": { "baseUrl": "<url>" } }',
    );
    // a3s init says the key is missing when it writes the model.
    const dir = empty();
    const init = await runMain(['init', '--model', 'openai/gpt-4o'], { cwd: dir, env: {} });
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('note: OPENAI_API_KEY is not set; export it before a3s run or a3s code');
    expect(existsSync(join(dir, 'a3s.config.json'))).toBe(true);
  });

  it('a model server that does not answer, and a refused key, get the next step', () => {
    const down = hintsFor(
      'run',
      new LlmError('transport', 'ollama: request failed: fetch failed', { provider: 'ollama' }),
    );
    expect(down[0]).toMatch(
      /^is the ollama server running\? Its URL: OLLAMA_BASE_URL, else .*, else http:\/\/127\.0\.0\.1:11434\/v1/,
    );
    expect(down[1]).toContain('scripted:model.json');
    const net = hintsFor('run', new LlmError('transport', 'openai: request failed', { provider: 'openai' }));
    expect(net[0]).toMatch(/^check the network connection to openai \(OPENAI_BASE_URL or/);
    const refused = hintsFor('code', new LlmError('status', 'openai: 401', { provider: 'openai', status: 401 }));
    expect(refused).toEqual([
      "openai refused the key (HTTP 401): check OPENAI_API_KEY ('a3s models' shows whether it is set)",
    ]);
    expect(hintsFor('run', new LlmError('status', 'openai: 500', { provider: 'openai', status: 500 }))).toEqual([]);
  });
});

describe('files that are not what they should be', () => {
  it('a3s replay of a file that is no fact log is a usage error naming it; a damaged log names file and line', async () => {
    const dir = empty();
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    for (const args of [
      ['replay', 'notes.txt'],
      ['replay', '--web', 'notes.txt'],
    ]) {
      const r = await runMain(args, { cwd: dir });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^a3s replay: ${join(dir, 'notes.txt').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not an A3S fact log \\(fact log line 1: json: not valid JSON`,
        ),
      );
      expect(r.stdout).toBe('');
    }
    const repo = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Done.' }])}`;
    expect((await runMain(['run', '--model', model, '--cwd', repo, '--session', 'ok', 'go'])).status).toBe(0);
    const log = join(repo, '.a3s', 'effect-log', 'ok.jsonl');
    const [head, ...tail] = readFileSync(log, 'utf8').split('\n');
    writeFileSync(log, [head, 'garbage', ...tail].join('\n'));
    const damaged = await runMain(['replay', log]);
    expect(damaged.status).toBe(1);
    expect(damaged.stderr).toBe(
      `a3s replay: FACT_PARSE: fact log line 2: json: not valid JSON (Unexpected token 'g', "garbage" is not valid JSON) (in ${log})\n` +
        `hint: line 2 of ${log} is damaged; a3s never rewrites a log (it only appends), so it stays so. Lines 1 to 1 before it are intact: to keep them, copy the log aside and cut it before the damaged line (cp ${log} ${log}.damaged && head -n 1 ${log}.damaged > ${log} && rm -f ${log}.seal; what came after it stays only in the copy, and the seal, which records what the session wrote, would refuse the shorter log)\n`,
    );
  });

  it('a3s sessions lists a damaged log as unreadable (the others still listed) and counts sessions left without a prompt', async () => {
    const repo = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Done.' }])}`;
    expect((await runMain(['run', '--model', model, '--cwd', repo, '--session', 'good', 'first task'])).status).toBe(0);
    const logs = join(repo, '.a3s', 'effect-log');
    writeFileSync(join(logs, 'empty.jsonl'), '');
    writeFileSync(join(logs, 'bad.jsonl'), `${readFileSync(join(logs, 'good.jsonl'), 'utf8')}garbage\n`);
    const r = await runMain(['sessions', '--cwd', repo]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^bad {2}\S+ {2}unreadable log: fact log line \d+: json: not valid JSON/m);
    expect(r.stdout).toMatch(
      /^good {2}\S+ {2}1 run\(s\), last completed \(narrative\), 4 facts, phase idle\n {4}"first task"$/m,
    );
    expect(r.stdout).not.toMatch(/^empty/m);
    expect(r.stdout).toContain('(1 session(s) opened without a prompt not listed; --json lists them)');
    const json = JSON.parse((await runMain(['sessions', '--json', '--cwd', repo])).stdout) as { id: string }[];
    expect(json.map((s) => s.id).sort()).toEqual(['bad', 'empty', 'good']);
  });

  it('a folder where the config file should be is named, not skipped', async () => {
    const dir = empty();
    mkdirSync(join(dir, 'a3s.config.json'));
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    for (const args of [['run', '--model', model, 'go'], ['tools']]) {
      const r = await runMain(args, { cwd: dir });
      expect(r.status, args[0]).toBe(2);
      expect(r.stderr).toBe(
        `a3s ${args[0]}: ${join(dir, 'a3s.config.json')} is not a file; the workspace's configuration is a JSON file (a3s init writes one)\n`,
      );
    }
  });

  it('a permission rule with a misspelt tool name is refused before the run, naming the tool it meant; other spellings hold', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['Bsh(rm *)'] } }));
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const r = await runMain(['run', '--trust-workspace', '--model', model, 'go'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `INVALID_PERMISSION_RULE: deny[0] (config file ${join(dir, 'a3s.config.json')}): 'Bsh(rm *)': names no tool of this session (did you mean 'bash'?)`,
    );
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['Bash(rm *)', 'WebFetch'] } }));
    const ok = await runMain(['run', '--trust-workspace', '--model', model, 'go'], { cwd: dir });
    expect(ok.status, ok.stderr).toBe(0);
  });

  it('a config file a3s init cannot write (a link to nothing) is named with the reason and the way out (exit 2), never a bare errno', async () => {
    const dir = empty();
    symlinkSync(join(dir, 'gone', 'a3s.config.json'), join(dir, 'a3s.config.json'));
    const r = await runMain(['init', '--model', 'ollama/qwen'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a3s.config.json')} is a symbolic link to`);
    expect(r.stderr).toContain('which leads to no file (ENOENT)');
    expect(r.stderr).not.toContain('a folder you can write to');
    noStack(r.stderr);
  });

  it('a workspace the session folder cannot be created in gets a hint: the workspace must be writable', () => {
    const denied = new SessionInitializationError(
      "cannot create the session folder '/ro/.a3s/sessions': EACCES: permission denied, mkdir '/ro/.a3s'",
      undefined,
      'sessionStore',
    );
    expect(hintsFor('run', denied)).toEqual([
      "a3s keeps each session's fact log and snapshot in the workspace's .a3s folder, so the workspace must be writable: run a3s run in a folder you can write to, or pass --cwd <dir>",
    ]);
    expect(hintsFor('run', new SessionInitializationError('store broke', undefined, 'sessionStore'))).toEqual([]);
  });
});

/** The real executable started in `dir` with no model or provider variable set (as on a fresh machine). */
function spawnIn(dir: string, args: string[]) {
  const r = spawnSync(process.execPath, [A3S, ...args], {
    cwd: dir,
    env: bareEnv(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
