// The run as it happens, in-process through `main(argv, io)` with scripted models: the
// verification summary that ended a run is printed last, the completion gate's extra turns are
// shown (live and in replay), refused and denied calls are shown and counted, bash output streams
// while the command runs, and a steer the run never delivered becomes the next prompt.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { FIX_TURNS, promptsLogged, scriptFile, tempRepo } from './kit.js';

const model = (turns: unknown[]) => `scripted:${scriptFile(turns)}`;

describe('a3s run: how the run ended', () => {
  it('GATE-06: a run ended by verification prints the verification summary last, not the text before verify', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    expect(await main(['run', '--yolo', '--model', model(FIX_TURNS), '--cwd', dir, 'fix the failing test'], h.io)).toBe(
      0,
    );
    const out = h.stdout.text;
    expect(out).toMatch(
      /✓ verification 'range fix': passed\n {2}- unit \(check, required\): passed \[exit 0\]\ncompleted \(verified\) · 2 tool call\(s\) ·/,
    );
    expect(out.indexOf('Verifying.')).toBeLessThan(out.indexOf("✓ verification 'range fix'"));
  });

  it("the completion gate's extra turn is shown as run_continued, live and in a3s replay", async () => {
    const dir = tempRepo();
    const turns = [FIX_TURNS[0], { text: 'Done, the bound is fixed.' }, FIX_TURNS[1]];
    const h = ioHarness(dir);
    expect(
      await main(['run', '--yolo', '--model', model(turns), '--cwd', dir, '--session', 'gate-1', 'fix it'], h.io),
    ).toBe(0);
    expect(h.stdout.text).toMatch(/Done, the bound is fixed\.\n↻ completion gate: [^\n]+ \(attempt 1\/3\)\n/);
    const replay = ioHarness(dir);
    expect(await main(['replay', 'gate-1', '--cwd', dir], replay.io)).toBe(0);
    expect(replay.stdout.text).toMatch(
      /tool table:\n {2} 1 {2}edit[^\n]*\n {6}↻ completion gate: [^\n]+ \(attempt 1\)\n {2} 2 {2}verify/,
    );
  });
});

describe('refused and denied calls', () => {
  const turns = [
    {
      tool_calls: [
        { id: 'b1', name: 'batch', args: { calls: [{ tool: 'bash', args: { command: 'echo nested' } }] } },
        { id: 'd1', name: 'bash', args: { command: 'rm -rf build' } },
      ],
    },
    { text: 'Could not do either.' },
  ];
  const repo = () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    return dir;
  };

  it('PERM-02: a3s run shows "refused: no approver" and "denied by rule" and counts them in the summary', async () => {
    const dir = repo();
    const h = ioHarness(dir);
    expect(await main(['run', '--model', model(turns), '--cwd', dir, 'clean up'], h.io)).toBe(0);
    const out = h.stdout.text;
    expect(out).toMatch(/● batch 1 call\(s\)\n {4}● bash echo nested\n {6}✗ refused: no approver — a3s run cannot ask/);
    expect(out).toMatch(/● bash rm -rf build\n {2}✗ denied by rule Bash\(rm:\*\)\n/);
    expect(out).not.toMatch(/✗ permission_denied/);
    expect(out).toMatch(/completed \(narrative\) · 1 tool call\(s\) · 1 refused · 1 denied · /);
  });

  it('PERM-02: a3s run --json carries both as permission_denied events naming who stopped them', async () => {
    const dir = repo();
    const h = ioHarness(dir);
    expect(await main(['run', '--json', '--model', model(turns), '--cwd', dir, 'clean up'], h.io)).toBe(0);
    const denied = h.stdout.text
      .trim()
      .split('\n')
      .map((l) => parseEventEnvelopeV1(JSON.parse(l)))
      .filter((e) => e.type === 'permission_denied');
    // The rule is applied when the model's calls are projected, before the batch runs.
    expect(denied.map((e) => [e.payload.tool_name, e.payload.denied_by])).toEqual([
      ['bash', 'rule'],
      ['bash', 'confirmation'],
    ]);
    expect(denied[0]!.payload.reason).toBe('Bash(rm:*)');
    expect(denied[1]!.payload.reason).toMatch(/^not confirmed: no approver/);
  });

  it('PARK-06: a3s code shows "refused by you" for a call the person refused, and counts it', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    const exited = main(
      [
        'code',
        '--model',
        model([{ tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi' } }] }, { text: 'never' }]),
        '--cwd',
        dir,
      ],
      h.io,
    );
    await until(
      () => h.screen.text.includes('type a prompt'),
      () => h.screen.text,
    );
    h.stdin.write('say hi\n');
    await until(
      () => h.screen.text.includes('allow? [y/n/a]'),
      () => h.screen.text,
    );
    h.stdin.write('n\n');
    await until(
      () => /completed[^\n]*\nstopped: a call was refused[^\n]*\n› $/.test(h.screen.text),
      () => h.screen.text,
    );
    expect(h.screen.text).toMatch(/● bash echo hi\n {2}✗ refused by you\n/);
    expect(h.screen.text).toMatch(/completed \(narrative\) · 0 tool call\(s\) · 1 refused · /);
    h.stdin.write('/exit\n');
    expect(await exited).toBe(0);
  }, 30_000);
});

describe('live output', () => {
  it('bash output streams while the command runs; the card does not repeat it', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    // The command prints `two` only once the test, having seen `one` on screen, creates `go` (out
    // of the workspace: a new file there would be a change the completion gate asks to verify).
    const go = join(mkdtempSync(join(tmpdir(), 'a3s-go-')), 'go');
    const command = `echo one; timeout 20 sh -c 'until [ -e ${go} ]; do sleep 0.02; done'; echo two`;
    const turns = [{ tool_calls: [{ id: 'b1', name: 'bash', args: { command } }] }, { text: 'Ran.' }];
    const done = main(['run', '--yolo', '--model', model(turns), '--cwd', dir, 'run it'], h.io);
    await until(
      () => h.stdout.text.includes('│ one'),
      () => h.stdout.text,
    );
    expect(h.stdout.text).not.toContain('│ two');
    writeFileSync(go, '');
    expect(await done).toBe(0);
    // The card's first line is the command, cut to the terminal's width.
    expect(h.stdout.text).toMatch(
      /● bash echo one; timeout 20 [^\n]*\n {2}│ one\n {2}│ two\n {2}✓ ok 2 line\(s\)\nRan\./,
    );
  }, 30_000);
});

describe('steers the run never delivered', () => {
  it('STEER-02: a line typed after the last model call is reported and sent as the next prompt', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    const exited = main(
      [
        'code',
        '--model',
        model([{ delay_ms: 800, text: 'First answer.' }, { text: 'Second answer.' }]),
        '--cwd',
        dir,
        '--session',
        'steer-1',
      ],
      h.io,
    );
    await until(
      () => h.screen.text.includes('type a prompt'),
      () => h.screen.text,
    );
    h.stdin.write('first\n');
    // The steer goes in while the first model call waits: once the prompt is in the log, the call is on.
    await promptsLogged(dir, 1);
    await new Promise((r) => setTimeout(r, 100));
    h.stdin.write('and use tabs\n');
    await until(
      () => h.screen.text.includes('Second answer.') && h.screen.text.endsWith('› '),
      () => h.screen.text,
    );
    const out = h.screen.text;
    expect(out).toContain('(steer queued for the next model call)');
    expect(out).toMatch(
      /First answer\.\ncompleted[^\n]*\nsteer not delivered: run ended; sending it as the next prompt\n {2}"and use tabs"\n› and use tabs\nSecond answer\./,
    );
    h.stdin.write('/exit\n');
    expect(await exited).toBe(0);
    const log = readdirSync(join(dir, '.a3s', 'effect-log')).find((f) => f.startsWith('steer-1'));
    expect(log).toBeDefined();
  }, 30_000);
});
