// Attachments on the command line: `a3s run --image/--file` (in-process), `a3s replay` listing them
// per turn, and `/image` `/file` in `a3s code` (pseudo-terminal).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, runMain, scriptFile, tempRepo } from './kit.js';
import { startPty } from './pty.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LOG_TEXT = 'GET /main.css 404\n';
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

function repoWithFiles(): string {
  const dir = tempRepo();
  mkdirSync(join(dir, 'shots'));
  writeFileSync(join(dir, 'shots', 'home.png'), PNG);
  writeFileSync(join(dir, 'app.log'), LOG_TEXT);
  return dir;
}

type LoggedFact = { type: string; payload: Record<string, unknown> };
const facts = (dir: string, session: string): LoggedFact[] =>
  readFileSync(join(dir, '.a3s', 'effect-log', `${session}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LoggedFact);

describe('a3s run --image / --file', () => {
  it('sends the attachments (paths from the folder it started in), logs their references, and replay lists them per turn', async () => {
    const dir = repoWithFiles();
    const model = `scripted:${scriptFile([{ text: 'The stylesheet 404s.' }, { text: 'Still.' }])}`;
    // Started inside shots/: the image path is relative to that folder, the log's to the workspace.
    const r = await runMain(
      [
        'run',
        '--model',
        model,
        '--cwd',
        dir,
        '--session',
        'att-1',
        '--image',
        'home.png',
        '--file',
        '../app.log',
        'why?',
      ],
      { cwd: join(dir, 'shots') },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('The stylesheet 404s.');
    const user = facts(dir, 'att-1').find((f) => f.type === 'user.message')!;
    expect(user.payload.attachments).toEqual([
      { sha256: sha(PNG), media_type: 'image/png', size: PNG.length, name: 'shots/home.png' },
      { sha256: sha(LOG_TEXT), media_type: 'text/plain', size: LOG_TEXT.length, name: 'app.log' },
    ]);
    expect(readFileSync(join(dir, '.a3s', 'artifacts', sha(PNG)))).toEqual(PNG);

    const replay = await runMain(['replay', '--cwd', dir, 'att-1']);
    expect(replay.status).toBe(0);
    expect(replay.stdout).toContain(
      `attachment in turn 1 (seq 2): shots/home.png image/png, ${PNG.length} bytes, sha256 ${sha(PNG)}`,
    );
    expect(replay.stdout).toContain(
      `attachment in turn 1 (seq 2): app.log text/plain, 18 bytes, sha256 ${sha(LOG_TEXT)}`,
    );
    expect(replay.stdout).not.toContain('is missing from .a3s/artifacts');
    const json = JSON.parse((await runMain(['replay', '--json', '--cwd', dir, 'att-1'])).stdout);
    expect(json.summary.attachments.map((a: { name: string; turn: number }) => [a.name, a.turn])).toEqual([
      ['shots/home.png', 1],
      ['app.log', 1],
    ]);
    // A deleted artifact is pointed out: a resume of that conversation would fail on it.
    rmSync(join(dir, '.a3s', 'artifacts', sha(LOG_TEXT)));
    expect((await runMain(['replay', '--cwd', dir, 'att-1'])).stdout).toContain(
      'note: the artifact of app.log (turn 1) is missing from .a3s/artifacts',
    );
  });

  it('an attachment the workspace refuses is a usage error (exit 2) naming it; nothing is logged', async () => {
    const dir = repoWithFiles();
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const outside = await runMain([
      'run',
      '--model',
      model,
      '--cwd',
      dir,
      '--session',
      'att-2',
      '--image',
      '../x.png',
      'why?',
    ]);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('a3s run: --image ../x.png: lies outside the workspace');
    const notImage = await runMain(['run', '--model', model, '--session', 'att-2', '--image', 'app.log', 'why?'], {
      cwd: dir,
    });
    expect(notImage.status).toBe(2);
    expect(notImage.stderr).toContain('not a PNG, JPEG, GIF or WebP image');
    // Checked before a session opens: no log at all.
    expect(existsSync(join(dir, '.a3s', 'effect-log', 'att-2.jsonl'))).toBe(false);
    expect((await runMain(['run', '--model', model, '--cwd', dir, '--image', '', 'x'])).status).toBe(2);
  });

  it('a FIFO, or a link to a device, is refused naming what it is and what is allowed, without reading it', async () => {
    const dir = repoWithFiles();
    execFileSync('mkfifo', [join(dir, 'pipe.log')]);
    symlinkSync('/dev/zero', join(dir, 'zero.log'));
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const fifo = await runMain(['run', '--model', model, '--session', 'att-3', '--file', 'pipe.log', 'why?'], {
      cwd: dir,
    });
    expect(fifo.status).toBe(2);
    expect(fifo.stderr).toContain(
      'a3s run: --file pipe.log: is a FIFO (named pipe), not a regular file; allowed: a regular file',
    );
    const device = await runMain(['run', '--model', model, '--session', 'att-3', '--image', 'zero.log', 'why?'], {
      cwd: dir,
    });
    expect(device.status).toBe(2);
    expect(device.stderr).toContain(
      'a3s run: --image zero.log: is a device, not a regular file; allowed: a regular file',
    );
    expect(existsSync(join(dir, '.a3s', 'effect-log', 'att-3.jsonl'))).toBe(false);
  });
});

describe('a3s code: /image and /file (pseudo-terminal)', () => {
  it('attach to the next prompt only', async () => {
    const dir = repoWithFiles();
    const script = scriptFile([{ text: 'I see the page.' }, { text: 'No attachments this time.' }]);
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const pty = startPty(
      [process.execPath, A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir, '--session', 'code-att'],
      env,
    );
    try {
      let at = await pty.waitFor('› ');
      pty.type('/image shots/home.png\r');
      at = await pty.waitFor('attached to the next prompt: shots/home.png (image)', at);
      pty.type('/file app.log\r');
      at = await pty.waitFor('attached to the next prompt: shots/home.png (image), app.log (file)', at);
      pty.type('what is wrong?\r');
      at = await pty.waitFor(/I see the page\.\ncompleted/, at);
      await pty.waitFor('› ', at);
      pty.type('and now?\r');
      at = await pty.waitFor(/No attachments this time\.\ncompleted/, at);
      await pty.waitFor('› ', at);
      pty.type('/exit\r');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.child.kill();
    }
    const prompts = facts(dir, 'code-att').filter((f) => f.type === 'user.message');
    expect(prompts.map((p) => (p.payload.attachments as { name: string }[] | undefined)?.map((a) => a.name))).toEqual([
      ['shots/home.png', 'app.log'],
      undefined,
    ]);
  }, 30_000);
});
