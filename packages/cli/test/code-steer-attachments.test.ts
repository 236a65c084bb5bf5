// `/image` and `/file` typed while a run is going in `a3s code` (in process through `main(argv, io)`,
// scripted models): they go with the next steer, or with the next prompt when the run ends first,
// and the terminal says which; a steer the run never delivered keeps its attachments; other `/`
// commands typed during a run are never sent to the model as steers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo, TINY_PNG } from './kit.js';

type Message = { text: string; source: string; attachments?: { name: string; media_type: string }[] };

/** The `user.message` facts of a session's log. */
const messages = (dir: string, session: string): Message[] =>
  readFileSync(join(dir, '.a3s', 'effect-log', `${session}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; payload: Message })
    .filter((f) => f.type === 'user.message')
    .map((f) => f.payload);

const names = (m: Message | undefined) => m?.attachments?.map((a) => a.name);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `a3s code` on a repository with `shot.png` and `app.log`, the model playing `turns`. */
async function codeSession(session: string, turns: unknown[]) {
  const dir = tempRepo();
  writeFileSync(join(dir, 'shot.png'), TINY_PNG);
  writeFileSync(join(dir, 'app.log'), 'GET / 500\n');
  const h = ioHarness(dir);
  const args = ['code', '--model', `scripted:${scriptFile(turns)}`, '--cwd', dir, '--session', session];
  const exited = main(args, h.io);
  await until(
    () => h.screen.text.includes('type a prompt'),
    () => h.screen.text,
  );
  const out = () => h.screen.text;
  const waitFor = (cond: () => boolean) => until(cond, out);
  /** Sends a prompt and waits until its run has started (lines typed from then on steer it). */
  const prompt = async (text: string) => {
    h.stdin.write(`${text}\n`);
    await pause(300);
  };
  return { dir, h, exited, out, waitFor, prompt, type: (line: string) => h.stdin.write(`${line}\n`) };
}

describe('a3s code: attachments typed during a run', () => {
  it('STEER-02: /image then a steer during the run: the image goes with the steer, not with the next prompt', async () => {
    const s = await codeSession('steer-img', [
      { delay_ms: 1_500, tool_calls: [{ id: 'c1', name: 'ls', args: {} }] },
      { text: 'Seen.' },
      { text: 'Plain.' },
    ]);
    await s.prompt('go');
    s.type('/image shot.png');
    s.type('/file app.log');
    s.type('look at these');
    await s.waitFor(() => /Seen\.\ncompleted[^\n]*\n› $/.test(s.out()));
    expect(s.out()).toContain(
      'attached to your next steer message: shot.png (image), app.log (file) (if the run ends first, to the next prompt)',
    );
    expect(s.out()).toContain('(steer queued for the next model call, with shot.png (image), app.log (file))');
    s.type('and now?');
    await s.waitFor(() => /Plain\.\ncompleted[^\n]*\n› $/.test(s.out()));
    s.type('/exit');
    expect(await s.exited).toBe(0);
    const [first, steer, next] = messages(s.dir, 'steer-img');
    expect(steer).toMatchObject({ text: 'look at these', source: 'steer' });
    expect(names(steer)).toEqual(['shot.png', 'app.log']);
    expect(steer!.attachments!.map((a) => a.media_type)).toEqual(['image/png', 'text/plain']);
    expect([names(first), next?.text, names(next)]).toEqual([undefined, 'and now?', undefined]);
  }, 30_000);

  it('/image during a run with no steer before it ends goes with the next prompt, and the terminal says so', async () => {
    const s = await codeSession('steer-late', [{ delay_ms: 1_200, text: 'First.' }, { text: 'Second.' }]);
    await s.prompt('go');
    s.type('/image shot.png');
    await s.waitFor(() => /First\.\ncompleted[^\n]*\n[^\n]*\n› $/.test(s.out()));
    expect(s.out()).toMatch(
      /First\.\ncompleted[^\n]*\nthe run ended before a steer: shot\.png \(image\) will go with your next prompt\n› $/,
    );
    s.type('what about this?');
    await s.waitFor(() => s.out().includes('Second.'));
    s.type('/exit');
    expect(await s.exited).toBe(0);
    const sent = messages(s.dir, 'steer-late');
    expect(sent.map((m) => [m.text, m.source, names(m)])).toEqual([
      ['go', 'user', undefined],
      ['what about this?', 'user', ['shot.png']],
    ]);
  }, 30_000);

  it('a steer with an image the run never delivered becomes the next prompt with its image', async () => {
    const s = await codeSession('steer-undelivered', [{ delay_ms: 1_500, text: 'First.' }, { text: 'Second.' }]);
    await s.prompt('go');
    s.type('/image shot.png');
    s.type('look at this');
    await s.waitFor(() => s.out().includes('Second.') && s.out().endsWith('› '));
    expect(s.out()).toMatch(
      /First\.\ncompleted[^\n]*\nsteer not delivered: run ended; sending it as the next prompt\n {2}"look at this"\n {2}with shot\.png \(image\)\n› look at this\nSecond\./,
    );
    s.type('/exit');
    expect(await s.exited).toBe(0);
    const sent = messages(s.dir, 'steer-undelivered');
    expect(sent.map((m) => [m.text, m.source, names(m)])).toEqual([
      ['go', 'user', undefined],
      ['look at this', 'user', ['shot.png']],
    ]);
  }, 30_000);

  it('after Ctrl-C the steer and its image are held, and /resume sends them with the continuation', async () => {
    const s = await codeSession('steer-held', [{ delay_ms: 5_000, text: 'never' }, { text: 'Continued.' }]);
    await s.prompt('go');
    s.type('/image shot.png');
    s.type('look at this');
    await s.waitFor(() => s.out().includes('(steer queued'));
    process.emit('SIGINT', 'SIGINT');
    await s.waitFor(() => s.out().includes('/resume continues the run with it'));
    expect(s.out()).toMatch(/steer not delivered: run interrupted\n {2}"look at this"\n {2}with shot\.png \(image\)\n/);
    s.type('/resume');
    await s.waitFor(() => s.out().includes('Continued.'));
    s.type('/exit');
    expect(await s.exited).toBe(0);
    const resumed = messages(s.dir, 'steer-held').at(-1);
    expect(resumed?.text).toMatch(/^Continue the task from where you stopped[\s\S]*look at this$/);
    expect(names(resumed)).toEqual(['shot.png']);
  }, 30_000);

  it('other / commands typed during a run are not steers: /help answers at once, /exit waits for the end', async () => {
    const s = await codeSession('steer-slash', [{ delay_ms: 1_200, text: 'First.' }, { text: 'never' }]);
    await s.prompt('go');
    s.type('/help');
    s.type('/bogus');
    s.type('/exit');
    await pause(200);
    expect(s.out()).not.toContain('First.');
    expect(s.out()).toContain('/image <path>');
    expect(s.out()).toContain('unknown command /bogus');
    expect(s.out()).toContain('(/exit runs when this run ends; Ctrl-C interrupts the run)');
    expect(await s.exited).toBe(0);
    expect(s.out()).toContain('First.');
    expect(messages(s.dir, 'steer-slash').map((m) => m.text)).toEqual(['go']);
  }, 30_000);
});
