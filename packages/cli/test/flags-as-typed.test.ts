// Flags as people type them: before the command (`a3s -C app run`),
// with a single dash (`-yolo`), in capitals (`--JSON`), with a value on a switch (`--yolo=false`)
// or after `=` on a short flag (`-m=…`); command names that are Object.prototype's own
// (`a3s toString`); a config file that cannot be read or is a folder, in `a3s models` too; a
// session id or folder name holding terminal control sequences; a replay whose workspace config
// file is broken. Each is answered on stderr in one
// line naming what was typed and what is allowed, with the usual exit code and no stack trace.
// Most cases run `main` (the executable's whole body) in this process; the real executable runs
// where the process matters: flags before the command, a config file only another user cannot
// read, a home folder under /proc (a hang there would hang this worker), and `a3s code` on a pipe.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, a3s, runMain, scriptFile, TEST_A3S_HOME } from './kit.js';

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);
const empty = () => mkdtempSync(join(tmpdir(), 'a3s-flags-'));
const hello = () => scriptFile([{ text: 'Hello from a scripted model.' }]);
/** `main(args)` in this process, with `env` over the test's environment (as the executable gets it). */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runMain(args, { env: { ...process.env, ...env } as Record<string, string> });

describe('flags as people type them', () => {
  it('flags before the command go to that command', async () => {
    const dir = empty();
    const run = a3s(['-C', dir, '--model', `scripted:${hello()}`, 'run', 'say hello']);
    expect(run.stderr).toBe('');
    expect([run.status, run.stdout]).toEqual([0, expect.stringContaining('Hello from a scripted model.')]);
    expect(run.stdout).toContain(join(dir, '.a3s', 'effect-log'));
    const tools = await cli(['--cwd', dir, '--plan', 'tools', '--json']);
    expect(tools.status, tools.stderr).toBe(0);
    const names = (JSON.parse(tools.stdout) as { name: string }[]).map((t) => t.name);
    expect(names).toContain('read');
    expect(names).not.toContain('bash');
    const models = await cli(['-m', 'openai/gpt-4o', 'models', '--json'], { OPENAI_API_KEY: 'sk-test' });
    expect(models.status, models.stderr).toBe(0);
    expect(JSON.parse(models.stdout).model).toEqual({ model: 'openai/gpt-4o', from: '--model' });
    // The value of a flag is never taken for the command: `-m run` is the model "run".
    const value = await cli(['-m', 'run', '-C', dir]);
    expect([value.status, value.stderr]).toEqual([2, expect.stringMatching(/^a3s code: --model run: expected/)]);
    // After `--` nothing moves.
    const rest = await cli(['--yolo', '--', 'run']);
    expect([rest.status, rest.stderr]).toEqual([2, expect.stringContaining("unexpected argument 'run'")]);
  });

  it("a3s --help <command> is that command's help; the main help says flags may come first and lists -v", async () => {
    for (const first of ['--help', '-h']) {
      const r = await cli([first, 'run']);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^Usage: a3s run \[options\] "<prompt>"/);
    }
    const main = await cli(['--help']);
    expect(main.stdout).toContain('version              print the version (also --version, -V, -v)');
    expect(main.stdout).toContain('flags may also come before it (a3s -C ../app run "...")');
    expect((await cli(['-v'])).stdout).toMatch(/^a3s \d+\.\d+\.\d+/);
  });

  it('-yolo, -json and --JSON name the long flag meant; -zzz names what was typed', async () => {
    for (const [args, said] of [
      [['run', 'hi', '-yolo'], "a3s run: unknown option '-yolo' (did you mean --yolo?); a3s run takes --model <value>"],
      [['tools', '-json'], "a3s tools: unknown option '-json' (did you mean --json?); a3s tools takes"],
      [['tools', '--JSON'], "a3s tools: unknown option '--JSON' (did you mean --json?); a3s tools takes"],
      [['run', 'hi', '-zzz'], "a3s run: unknown option '-zzz'; a3s run takes"],
    ] as const) {
      const r = await cli([...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(said);
      noStack(r.stderr);
    }
  });

  it('--resume on a3s code or a3s run points at a3s sessions --resume <id> and --session <id>', async () => {
    for (const command of ['code', 'run']) {
      const r = await cli([command, '--resume', 's1']);
      expect(r.status, command).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(
        `a3s ${command}: unknown option '--resume' (did you mean a3s sessions --resume <id>, or a3s ${command} --session <id>?); a3s ${command} takes`,
      );
      expect(r.stderr).not.toContain('a prompt that starts with a dash');
    }
  });

  it('a value given to a switch is refused naming the switch; -m=<model> reads as --model=<model>', async () => {
    for (const [args, flag] of [
      [['run', '--yolo=false', 'hi'], '--yolo'],
      [['tools', '--json=1'], '--json'],
    ] as const) {
      const r = await cli([...args]);
      expect([r.status, r.stderr]).toEqual([
        2,
        `a3s ${args[0]}: ${flag} takes no value: it is a switch (${flag} turns it on; leave it out to keep it off); see 'a3s ${args[0]} --help'\n`,
      ]);
    }
    const dir = empty();
    const short = await cli(['run', `-m=scripted:${hello()}`, `-C=${dir}`, 'hi']);
    expect([short.status, short.stderr]).toEqual([0, '']);
    expect(short.stdout).toContain('Hello from a scripted model.');
    // The value keeps what follows the first `=`, even a leading dash.
    const dash = await cli(['run', '-m=-x', '-C', dir, 'hi']);
    expect([dash.status, dash.stderr]).toEqual([2, expect.stringMatching(/^a3s run: --model -x: expected/)]);
  });

  it('a3s sessions refuses the session flags without --resume, where they would do nothing', async () => {
    const dir = empty();
    for (const [flag, args] of [
      ['--model', ['--model', 'foo/bar']],
      ['--yolo', ['--yolo']],
      ['--plan', ['--plan']],
      ['--vibe', ['--vibe']],
      ['--vibe-tier', ['--vibe-tier', 'fast=openai/gpt-4o-mini']],
      ['--trust-workspace', ['--trust-workspace']],
    ] as const) {
      const r = await cli(['sessions', '--cwd', dir, ...args]);
      expect([r.status, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `a3s sessions: ${flag} applies only with --resume <id> (the session it reopens); a3s sessions without --resume lists the sessions, and takes --cwd, --limit, --all and --json\n`,
      ]);
    }
    expect(await cli(['sessions', '--cwd', dir, '--json'])).toMatchObject({ status: 0, stdout: '[]\n' });
    expect((await cli(['sessions', '--help'])).stdout).toContain('apply only with --resume.');
  });

  it('a vibe tier whose provider has no key or base URL: the hint names the variable, not the tier key path', async () => {
    const bare: Record<string, string> = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
    const key = await cli(
      [
        'run',
        '--vibe',
        '--cwd',
        empty(),
        '--model',
        `scripted:${hello()}`,
        '--vibe-tier',
        'fast=openai/gpt-4o-mini',
        'hi',
      ],
      bare,
    );
    expect(key.status).toBe(2);
    expect(key.stderr).toContain(
      `\nhint: export OPENAI_API_KEY=<your key>, or name the variable that holds it in a3s.config.json: "providers": { "openai": { "apiKeyEnv": "<VARIABLE>" } }`,
    );
    const url = await cli(
      ['run', '--vibe', '--cwd', empty(), '--model', `scripted:${hello()}`, '--vibe-tier', 'good=vllm/qwen', 'hi'],
      bare,
    );
    expect(url.status).toBe(2);
    expect(url.stderr).toContain(
      `\nhint: export OPENAI_BASE_URL=<url>, or set it in a3s.config.json: "providers": { "vllm": { "baseUrl": "<url>" } }`,
    );
    expect(key.stderr + url.stderr).not.toContain('export vibe.');
  });

  it("names of Object.prototype's members are unknown commands, exit 2", async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const r = await cli([name, 'x']);
      expect([r.status, r.stderr], name).toEqual([
        2,
        expect.stringMatching(new RegExp(`^a3s: unknown command '${name}'; expected one of code, run,`)),
      ]);
      expect((await cli(['help', name])).status).toBe(2);
    }
  });
});

describe('the workspace config file and the text a3s echoes', () => {
  it('a config file that cannot be read: the hint says to make it readable, not the workspace writable', async (ctx) => {
    const dir = empty();
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'a3s.config.json'), '{"model":"openai/gpt-4o"}');
    chmodSync(join(dir, 'a3s.config.json'), 0o000);
    const root = process.getuid?.() === 0;
    if (root) {
      // As root the child runs as nobody, who must be able to load the CLI from this checkout.
      const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(A3S)})`], {
        uid: 65534,
        gid: 65534,
      });
      if (probe.status !== 0)
        ctx.skip('running as root in a checkout the user nobody cannot read: nothing to run the CLI as');
    }
    for (const command of ['tools', 'models']) {
      // As root every file is readable: the child then runs as nobody.
      const r = spawnSync(process.execPath, [A3S, command, '--cwd', dir], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', A3S_HOME: TEST_A3S_HOME },
        ...(root ? { uid: 65534, gid: 65534 } : {}),
      });
      expect(r.status, r.stderr).toBe(1);
      const [error, hint, ...more] = r.stderr.trimEnd().split('\n');
      expect(error).toMatch(
        new RegExp(`^a3s ${command}: SESSION_INITIALIZATION: .*cannot read '.*a3s\\.config\\.json': EACCES`),
      );
      expect(hint).toBe(
        `hint: a3s reads the workspace's config file before every command: make it readable (chmod u+r '${join(dir, 'a3s.config.json')}'), or pass --cwd <dir> to work in another folder`,
      );
      expect(more).toEqual([]);
    }
  });

  it('a3s models refuses a folder in the config file place, and names a config model whose script is missing', async () => {
    const folder = empty();
    mkdirSync(join(folder, 'a3s.config.json'));
    const r = await cli(['models', '--cwd', folder]);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `a3s models: ${join(folder, 'a3s.config.json')} is not a file; the workspace's configuration is a JSON file (a3s init writes one)\n`,
    ]);
    const missing = empty();
    writeFileSync(join(missing, 'a3s.config.json'), '{"model":"scripted:gone.json"}');
    const m = await cli(['models', '--cwd', missing]);
    expect(m.status).toBe(2);
    expect(m.stdout.trimEnd().split('\n').at(-1)).toBe(
      `"model" in ${join(missing, 'a3s.config.json')}: scripted:${join(missing, 'gone.json')}: no such script file (looked for ${join(missing, 'gone.json')})`,
    );
    const json = await cli(['models', '--cwd', missing, '--json']);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout).model.problem).toContain('no such script file');
    // As a3s run says of it.
    expect((await cli(['run', '--cwd', missing, 'hi'])).status).toBe(2);
  });

  it('a3s init --cwd <dir> --model scripted:<file>: the file is looked for where typed and written so the config finds it', async () => {
    const top = empty();
    const script = join(top, 'model.json');
    writeFileSync(script, JSON.stringify({ turns: [{ text: 'Hello from a scripted model.' }] }));
    const ws = join(top, 'app', 'ws');
    mkdirSync(ws, { recursive: true });
    const r = spawnSync(process.execPath, [A3S, 'init', '--cwd', 'app/ws', '--model', 'scripted:model.json'], {
      cwd: top,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', A3S_HOME: TEST_A3S_HOME },
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8')).model).toBe('scripted:../../model.json');
    const run = await cli(['run', '--cwd', ws, 'hi']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('Hello from a scripted model.');
    // A script that is not there is named before anything is written.
    const missing = await cli(['init', '--cwd', ws, '--force', '--model', `scripted:${join(top, 'gone.json')}`]);
    expect([missing.status, missing.stderr]).toEqual([
      2,
      `a3s init: --model scripted:${join(top, 'gone.json')}: no such script file (looked for ${join(top, 'gone.json')})\n`,
    ]);
    expect(JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8')).model).toBe('scripted:../../model.json');
  });

  it('a3s replay of a log whose workspace config file is broken still shows the log, with one warning for the cost', async () => {
    const ws = empty();
    const run = await cli(['run', '--cwd', ws, '--session', 's1', '--model', `scripted:${hello()}`, 'hi']);
    expect(run.status, run.stderr).toBe(0);
    writeFileSync(join(ws, 'a3s.config.json'), '{"modle": "openai/gpt-4o"}');
    const warning = expect.stringMatching(
      /^warning: no cost shown: SESSION_CONFIGURATION: .*modle: is not a known key; allowed keys: model, .*a3s\.config\.json:1:2\); did you mean 'model'\?\n$/,
    );
    for (const args of [
      ['replay', '--cwd', ws, 's1'],
      ['replay', join(ws, '.a3s', 'effect-log', 's1.jsonl')],
    ]) {
      const r = await cli(args);
      expect([r.status, r.stderr]).toEqual([0, warning]);
      expect(r.stdout).toContain('run run-');
      expect(r.stdout).toContain('tokens: 464 in, 7 out');
    }
    const json = await cli(['replay', '--json', ws]);
    expect([json.status, json.stderr]).toEqual([0, warning]);
    expect(JSON.parse(json.stdout).summary.facts).toBe(4);
    // The session commands still refuse the file.
    expect((await cli(['tools', '--cwd', ws])).status).toBe(2);
  });

  it('--trust-workspace with an A3S_HOME that cannot hold the trust record: the run goes on, trusted for this run, with a warning naming the file, the error and A3S_HOME; no hang', async () => {
    const ws = empty();
    writeFileSync(join(ws, 'a3s.config.json'), '{"permissions":{"allow":["Bash(echo:*)"]}}');
    const file = join(empty(), 'home-is-a-file');
    writeFileSync(file, '');
    // Under /proc, Node's recursive mkdir never returns.
    for (const home of [file, join(file, 'below'), '/proc/a3s-no-such-home']) {
      const r = a3s(['run', '--cwd', ws, '--trust-workspace', '--model', `scripted:${hello()}`, 'hi'], {
        A3S_HOME: home,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('Hello from a scripted model.');
      expect(r.stderr).toBe(
        `warning: ${realpathSync(ws)} is trusted for this run only: the trust could not be remembered in ${join(home, 'trusted-workspaces.json')} (${/ENOTDIR|ENOENT/.exec(r.stderr)?.[0]}), so the next run needs it again; set A3S_HOME to a folder you can write to (default ~/.a3s) to have it remembered\n`,
      );
      // Not remembered: without the flag the next run is refused as before.
      const again = a3s(['run', '--cwd', ws, '--model', `scripted:${hello()}`, 'hi'], { A3S_HOME: home });
      expect(again.status).toBe(2);
      expect(again.stderr).toContain('--trust-workspace');
    }
    // A home folder that is missing is created, the folders above it too.
    const fresh = join(empty(), 'a', 'b');
    const ok = a3s(['run', '--cwd', ws, '--trust-workspace', '--model', `scripted:${hello()}`, 'hi'], {
      A3S_HOME: fresh,
    });
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(readFileSync(join(fresh, 'trusted-workspaces.json'), 'utf8')).toContain('"config_sha256"');
  });

  it('a3s replay of an empty log says it holds no facts (exit 0); a log of one torn line says that instead', async () => {
    const dir = empty();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const r = await cli(['replay', join(dir, 'empty.jsonl')]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')[2]).toBe(
      'note: the log holds no facts (a session opened and closed before its first prompt)',
    );
    writeFileSync(join(dir, 'torn.jsonl'), '{"seq":1,"type":"run.started"');
    const torn = await cli(['replay', join(dir, 'torn.jsonl')]);
    expect(torn.status).toBe(0);
    expect(torn.stdout.split('\n')[2]).toMatch(/^note: ignored a torn last line/);
    expect(torn.stdout).not.toContain('holds no facts');
  });

  it('a session id or workspace folder holding control sequences is printed inert by a3s run and a3s code', async () => {
    const dir = join(empty(), 'w\u001b]0;pwned\u0007s');
    mkdirSync(dir);
    const id = 'id\u001b[31mred';
    const run = await cli(['run', '--cwd', dir, '--session', id, '--model', `scripted:${hello()}`, 'hi']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Hello from a scripted model.');
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('\u0007');
    const code = a3s(['code', '--cwd', dir, '--session', id, '--model', `scripted:${hello()}`], {}, '/save\n/exit\n');
    expect(code.status, code.stderr).toBe(0);
    expect(code.stdout).toContain('saved session');
    expect(code.stdout).not.toContain('\u001b');
    expect(code.stdout).not.toContain('\u0007');
  });
});
