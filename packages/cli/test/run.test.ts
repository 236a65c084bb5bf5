// `a3s run` on a temporary git repository with a scripted model file: the verified `--json` run as a
// real process, the rest in-process through `main(argv, io)`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { a3s, FIX_TURNS, runMain, scriptFile, tempRepo } from './kit.js';

describe('a3s run', () => {
  it('--json prints v1 event envelopes as JSONL and exits 0 on a verified run', () => {
    const dir = tempRepo();
    const r = a3s([
      'run',
      '--json',
      '--yolo',
      '--model',
      `scripted:${scriptFile(FIX_TURNS)}`,
      '--cwd',
      dir,
      'fix the failing test',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => parseEventEnvelopeV1(JSON.parse(l)));
    expect(events[0]!.type).toBe('agent_start');
    expect(events.filter((e) => e.type === 'tool_start').map((e) => e.payload.name)).toEqual([
      'edit',
      'verify',
      'bash',
    ]);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ toolName: 'edit' });
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      payload: { status: 'completed', completion: 'verified' },
    });
    expect(new Set(events.map((e) => e.metadata.session_id)).size).toBe(1);
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i <= end');
  });

  it('a3s run - reads the prompt from stdin; an empty one is a usage error', () => {
    const dir = tempRepo();
    const prompt = 'fix the failing test\n(the range helper is off by one)\n';
    const r = a3s(
      ['run', '--yolo', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, '--session', 'piped', '-'],
      {},
      prompt,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const log = readFileSync(join(dir, '.a3s', 'effect-log', 'piped.jsonl'), 'utf8');
    const first = JSON.parse(log.split('\n').find((l) => l.includes('"user.message"'))!) as {
      payload: { text: string };
    };
    expect(first.payload.text).toBe(prompt.trim());
    const empty = a3s(['run', '--yolo', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, '-'], {}, '  \n');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('the prompt read from stdin (a3s run -) is empty');
    // With no prompt given and stdin piped in, stdin is the prompt too (echo … | a3s run).
    const implicit = a3s(
      ['run', '--model', `scripted:${scriptFile([{ text: 'Read it.' }])}`, '--cwd', dir, '--session', 'implicit'],
      {},
      prompt,
    );
    expect(implicit.status, implicit.stderr).toBe(0);
    expect(readFileSync(join(dir, '.a3s', 'effect-log', 'implicit.jsonl'), 'utf8')).toContain(
      '(the range helper is off by one)',
    );
    const nothing = a3s(['run', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir], {}, '');
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain('the prompt read from stdin (piped in, with no prompt given) is empty');
    // Latin-1 text is not UTF-8: refused naming the offset, never sent with U+FFFD in it.
    const latin1 = a3s(
      ['run', '--yolo', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, '-'],
      {},
      Buffer.from('corrige le caf\xe9 cass\xe9\n', 'latin1'),
    );
    expect(latin1.status).toBe(2);
    expect(latin1.stderr).toContain('the prompt on stdin is not valid UTF-8 (first bad byte at offset 14)');
    // A byte-order mark is not part of the prompt.
    const bom = a3s(
      ['run', '--yolo', '--model', `scripted:${scriptFile(FIX_TURNS)}`, '--cwd', dir, '--session', 'bom', '-'],
      {},
      Buffer.from('\ufefffix the test\n', 'utf8'),
    );
    expect(bom.stderr).not.toContain('UTF-8');
    const bomLog = readFileSync(join(dir, '.a3s', 'effect-log', 'bom.jsonl'), 'utf8');
    expect(bomLog).toContain('"text":"fix the test"');
  });

  it('parks at a confirmation without --yolo (exit 3) and says how to continue', async () => {
    const dir = tempRepo();
    const r = await runMain([
      'run',
      '--model',
      `scripted:${scriptFile(FIX_TURNS)}`,
      '--cwd',
      dir,
      '--session',
      'parked-1',
      'fix it',
    ]);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('parked: waiting for confirmation of edit src/range.js (e1)');
    expect(r.stdout).toContain('a3s sessions --resume parked-1');
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i < end');
    const list = JSON.parse((await runMain(['sessions', '--json', '--cwd', dir])).stdout) as {
      id: string;
      phase: string;
    }[];
    expect(list).toEqual([expect.objectContaining({ id: 'parked-1', phase: 'confirm' })]);
  });

  it('exits 1 with the typed error when the change is never verified', async () => {
    const dir = tempRepo();
    const turns = [FIX_TURNS[0], { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }];
    const r = await runMain(['run', '--yolo', '--model', `scripted:${scriptFile(turns)}`, '--cwd', dir, 'fix it']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('run failed: COMPLETION_INCOMPLETE: the run changed the workspace but cannot complete');
    expect(r.stderr).toMatch(/log: .*\.a3s\/effect-log\//);
  });

  it('usage errors exit 2 and name what is wrong', async () => {
    const dir = tempRepo();
    expect(await runMain(['run', '--cwd', dir])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('missing the prompt'),
    });
    expect(await runMain(['run', '--bogus', 'x'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("'--bogus'"),
    });
    const noModel = await runMain(['run', '--cwd', dir, 'hi']);
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toMatch(
      /MODEL_NOT_CONFIGURED: .*A3S_MODEL\nhint: .*OPENAI_API_KEY.*ANTHROPIC_API_KEY.*\nhint: .*--model scripted:model\.json/,
    );
    const noKey = await runMain(['run', '--cwd', dir, '--model', 'openai/gpt-4o', 'hi'], {
      env: { OPENAI_API_KEY: '' },
    });
    expect(noKey).toMatchObject({ status: 2, stderr: expect.stringContaining('OPENAI_API_KEY: is not set') });
    expect(await runMain(['run', '--cwd', join(dir, 'nope'), '--model', 'scripted:x.json', 'hi'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('is not a folder'),
    });
    expect(await runMain(['frobnicate'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("unknown command 'frobnicate'"),
    });
  });

  it('--help everywhere', async () => {
    for (const command of ['run', 'replay', 'tools', 'sessions', 'code']) {
      const r = await runMain([command, '--help']);
      expect(r.status, command).toBe(0);
      expect(r.stdout, command).toContain(`Usage: a3s ${command}`);
    }
    expect((await runMain(['--help'])).stdout).toContain('Commands:');
  });
});
