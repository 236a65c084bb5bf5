// ask_user in `a3s code` (in process through `main(argv, io)`, scripted model): the question is a
// numbered card the run waits on; a permission prompt is a separate gate drawn as the same kind of card.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo } from './kit.js';

type Fact = { type: string; payload: Record<string, unknown> };

/** The facts of a session's log. */
const facts = (dir: string, session: string): Fact[] =>
  readFileSync(join(dir, '.a3s', 'effect-log', `${session}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Fact);
const ofType = (dir: string, session: string, type: string) =>
  facts(dir, session)
    .filter((f) => f.type === type)
    .map((f) => f.payload);

/** `a3s code` on a repository, the model playing `turns`. */
async function code(session: string, turns: unknown[], config?: Record<string, unknown>) {
  const dir = tempRepo();
  if (config) writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify(config));
  const h = ioHarness(dir);
  const args = ['code', '--model', `scripted:${scriptFile(turns)}`, '--cwd', dir, '--session', session];
  const exited = main(args, h.io);
  const out = () => h.screen.text;
  const waitFor = (cond: () => boolean) => until(cond, out);
  await waitFor(() => out().includes('type a prompt'));
  return { dir, out, waitFor, exited, type: (line: string) => h.stdin.write(`${line}\n`) };
}

const ask = (question: string, options: { label: string; description?: string }[]) => ({
  question: { question, options },
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a3s code: asking the person', () => {
  it('ASK-02: a question is a numbered card; the run waits until it is answered, skipped or times out', async () => {
    const s = await code(
      'ask-card',
      [
        ask('Which bug first?', [{ label: 'off-by-one', description: 'range end' }, { label: 'naming' }]),
        ask('Also rename?', [{ label: 'yes' }, { label: 'no' }]),
        ask('Anything else?', [{ label: 'no' }]),
        { text: 'Going with off-by-one.' },
      ],
      { questionTimeoutMs: 1500 },
    );
    s.type('fix it');
    await s.waitFor(() => s.out().includes('answer>'));
    expect(s.out()).toMatch(/\? Which bug first\?\n {2}1\. off-by-one — range end\n {2}2\. naming\n/);
    // Blocked: nothing moves on while the card waits.
    await pause(400);
    expect(ofType(s.dir, 'ask-card', 'question.answered')).toEqual([]);
    expect(s.out()).not.toContain('Also rename?');
    s.type('1');
    await s.waitFor(() => s.out().includes('Also rename?'));
    s.type('');
    await s.waitFor(() => s.out().includes('Anything else?'));
    const waiting = Date.now();
    await s.waitFor(() => /Going with off-by-one\.[\s\S]*completed[^\n]*\n› $/.test(s.out()));
    expect(Date.now() - waiting).toBeGreaterThanOrEqual(1000);
    const answers = ofType(s.dir, 'ask-card', 'question.answered');
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ text: 'off-by-one' });
    expect(answers[1]).toMatchObject({ skipped: true });
    expect(answers[2]).toMatchObject({ error: expect.stringContaining('timed out after 1500 ms') });
    s.type('/exit');
    expect(await s.exited).toBe(0);
  }, 30_000);

  it('ASK-07: a permission prompt is its own gate (confirmation, not ask_user) drawn as the same kind of card', async () => {
    const s = await code('ask-gate', [
      ask('Which file?', [{ label: 'src/range.js' }]),
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'NOTE.md', content: 'x' } }] },
    ]);
    s.type('go');
    await s.waitFor(() => s.out().includes('answer>'));
    s.type('1');
    await s.waitFor(() => s.out().includes('allow? [y/n/a]'));
    // Both cards start the same way: a `?` line with the subject in bold.
    expect(s.out()).toMatch(/\? Which file\?\n {2}1\. src\/range\.js\n/);
    expect(s.out()).toMatch(/\? allow write NOTE\.md\n {2}rule: /);
    s.type('n');
    await s.waitFor(() => /completed[^\n]*1 refused[^\n]*\nstopped: a call was refused[^\n]*\n› $/.test(s.out()));
    // Two gates, two records: the question's answer did not approve the write, the refusal answered it.
    expect(ofType(s.dir, 'ask-gate', 'question.answered')).toEqual([expect.objectContaining({ text: 'src/range.js' })]);
    expect(ofType(s.dir, 'ask-gate', 'confirmation.answered')).toEqual([
      expect.objectContaining({ tool_call_id: 'w1', approved: false }),
    ]);
    expect(ofType(s.dir, 'ask-gate', 'question.answered')[0]!.question_id).not.toBe('w1');
    s.type('/exit');
    expect(await s.exited).toBe(0);
  }, 30_000);
});
