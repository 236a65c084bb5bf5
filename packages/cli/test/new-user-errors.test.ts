// The newer CLI features met with wrong input, as a new user would: every mistake is one line on
// stderr naming what was wrong and what is allowed, exit code 2, no stack trace, no hang; in
// `a3s code` a wrong `/` command answers with its usage and the prompt comes back. In process
// through `main(argv, io)`.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { runMain, scriptFile, tempRepo } from './kit.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A repository with a text file, a binary file, a folder, an image and an oversized image. */
function workspace(): string {
  const dir = tempRepo();
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(join(dir, 'blob.bin'), Buffer.from([0x00, 0xff, 0x10, 0x80, 0x00, 0x01]));
  mkdirSync(join(dir, 'shots'));
  writeFileSync(join(dir, 'shots', 'ok.png'), PNG);
  writeFileSync(join(dir, 'huge.png'), Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
  return dir;
}

/** One error line, no stack trace. */
function oneLine(stderr: string): void {
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('a3s with wrong input: one line, exit 2', () => {
  it('flags: unknown, without their value, extra arguments', async () => {
    const dir = workspace();
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const cases: [string[], RegExp][] = [
      [
        ['run', '--bogus', 'x'],
        /^a3s run: unknown option '--bogus'; a3s run takes --model <value>, .*--image <value>, --file <value>/,
      ],
      [['run', '--model'], /^a3s run: --model needs a value/],
      [['run', '--model', model, 'hi', '--image'], /^a3s run: --image needs a value/],
      [['run', '--model', model, '--file'], /^a3s run: --file needs a value/],
      [['run', '--model', model], /^a3s run: missing the prompt/],
      [
        ['code', 'fix it', '--model', model],
        /^a3s code: unexpected argument 'fix it'; a3s code takes no arguments \(type prompts/,
      ],
      [['code', '--vibe-mode'], /^a3s code: unknown option '--vibe-mode'; a3s code takes .*--vibe/],
      [['sessions', 'abc'], /^a3s sessions: unexpected argument 'abc'.*after --resume/],
      [['sessions', '--resume'], /^a3s sessions: --resume needs a value/],
      [
        ['sessions', '--resume', 'nope'],
        /^a3s sessions: --resume: no session 'nope' under .*list them with 'a3s sessions'/,
      ],
      [['serve', '--framing', 'xml'], /^a3s serve: --framing: must be one of ndjson, content-length, got 'xml'/],
      [['serve', '--framing'], /^a3s serve: --framing needs a value/],
      [['tools', 'extra'], /^a3s tools: unexpected argument 'extra'/],
      [['version', 'x'], /^a3s version: unexpected argument 'x'/],
      [
        ['run', '--model', model, '--session', '', 'hi'],
        /^a3s run: --session: needs a session id, e\.g\. --session fix-1/,
      ],
      [['code', '--model', model, '--session', ' '], /^a3s code: --session: needs a session id/],
      [
        ['run', '--model', model, '--session', 'x'.repeat(1025), 'hi'],
        /^a3s run: --session: the id is 1025 characters long; allowed: 1 to 1024 characters$/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runMain(args, { cwd: dir });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trimEnd(), args.join(' ')).toMatch(message);
      oneLine(r.stderr);
    }
  });

  it('attachments: a missing file, a folder, a binary file, text as an image, an oversized image, outside the workspace', async () => {
    const dir = workspace();
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const cases: [string[], RegExp][] = [
      [['--image', 'nope.png'], /^a3s run: --image nope\.png: no such file \(looked for .*nope\.png\)$/],
      [['--file', 'shots'], /^a3s run: --file shots: is a folder; allowed: a file$/],
      [
        ['--file', 'blob.bin'],
        /^a3s run: --file blob\.bin: is a binary file \(not UTF-8 text\); allowed: text files and PNG/,
      ],
      [
        ['--image', 'notes.txt'],
        /^a3s run: --image notes\.txt: is not a PNG, JPEG, GIF or WebP image .*send a text file with --file$/,
      ],
      [
        ['--image', 'huge.png'],
        /^a3s run: --image huge\.png: is \d+ bytes; allowed: at most 5 MB \(5242880 bytes\) for an image$/,
      ],
      [
        ['--image', '../outside.png'],
        /^a3s run: --image \.\.\/outside\.png: lies outside the workspace .*; allowed: a file inside it$/,
      ],
      [['--file', ''], /^a3s run: --file: needs a path/],
    ];
    for (const [flag, message] of cases) {
      const r = await runMain(['run', '--model', model, '--session', 'never', ...flag, 'look'], { cwd: dir });
      expect(r.status, flag.join(' ')).toBe(2);
      expect(r.stderr.trimEnd(), flag.join(' ')).toMatch(message);
      oneLine(r.stderr);
    }
    // Nothing ran: no session was opened, so no log was written.
    const logs = await runMain(['sessions', '--json'], { cwd: dir });
    expect(JSON.parse(logs.stdout)).toEqual([]);
  });

  it('an empty folder with no config: the missing model is named, with the way to set one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'a3s-empty-'));
    for (const args of [['run', 'hi'], [], ['--vibe']]) {
      const r = await runMain(args, { cwd: empty });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^a3s \w+: MODEL_NOT_CONFIGURED: no model is configured/);
      expect(r.stderr).toMatch(/\nhint: a3s \w+ --model openai\/<model>.*'a3s models' lists every provider[^\n]*\n/);
      expect(r.stderr).toMatch(/\nhint: to try a3s offline with no key, [^\n]*--model scripted:model\.json[^\n]*\n$/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('a3s code: wrong / commands answer with their usage', () => {
  it('/vibe, /image, /file, flows, unknown and argument-less commands', async () => {
    const dir = workspace();
    const h = ioHarness(dir);
    const exited = main(['code', '--model', `scripted:${scriptFile([{ text: 'never' }])}`], h.io);
    const out = () => h.stdout.text + h.stderr.text;
    const answer = async (line: string, expected: string | RegExp) => {
      const from = out().length;
      h.stdin.write(`${line}\n`);
      await until(
        () => (typeof expected === 'string' ? out().slice(from).includes(expected) : expected.test(out().slice(from))),
        out,
      );
    };
    await until(() => out().includes('type a prompt'), out);
    await answer('/vibe maybe', "usage: /vibe, /vibe on or /vibe off (not 'maybe')");
    await answer('/vibe on off', "usage: /vibe, /vibe on or /vibe off (not 'on off')");
    await answer('/image', 'usage: /image <path>, e.g. /image shot.png');
    await answer('/file   ', 'usage: /file <path>, e.g. /file app.log');
    await answer('/image nope.png', '/image nope.png: no such file');
    await answer('/file shots', '/file shots: is a folder; allowed: a file');
    await answer('/file blob.bin', '/file blob.bin: is a binary file (not UTF-8 text)');
    await answer('/image notes.txt', 'send a text file with /file');
    await answer('/image huge.png', '/image huge.png: is');
    await answer('/image shots/ok.png', 'attached to the next prompt: shots/ok.png (image)');
    await answer('/bogus', /unknown command \/bogus; commands: \/help, .*\/vibe, \/ultracode, \/research/);
    await answer('/research --run', 'usage: /research --run <id> <the same text>');
    await answer('/ultracode --fast fix it', "unknown option '--fast'; /ultracode takes only --run <id>");
    await answer('/help me', "usage: /help (it takes no arguments; got 'me')");
    await answer('/exit now', "usage: /exit (it takes no arguments; got 'now')");
    h.stdin.write('/exit\n');
    expect(await exited).toBe(0);
    expect(out()).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe('a model that sends arguments JSON cannot hold', () => {
  it('the call is answered INVALID_TOOL_ARGS, its card says so, and the run completes', async () => {
    const dir = workspace();
    const script = join(mkdtempSync(join(tmpdir(), 'a3s-script-')), 'model.json');
    // Written by hand: JSON.stringify cannot write 1e400 (it is Infinity once parsed).
    writeFileSync(
      script,
      '{"turns":[{"text":"reading","tool_calls":[{"id":"c1","name":"read","args":{"file_path":"notes.txt","limit":1e400}}]},{"text":"done"}]}',
    );
    const r = await runMain(['run', '--model', `scripted:${script}`, '--cwd', dir, 'read the notes'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('● read (malformed arguments: a number is too large for JSON (it would be Infinity))');
    expect(r.stdout).toContain('read: args: are not one JSON object');
    expect(r.stdout).toMatch(/completed \(narrative\)/);
  });
});
