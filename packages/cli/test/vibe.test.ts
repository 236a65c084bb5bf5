// Vibe mode in the CLI, in-process through `main(argv, io)` with a scripted model: `a3s run
// --vibe --json` streams the worker_* events, `a3s tools --vibe` lists the five read-tier tools,
// and `/vibe` in `a3s code` turns vibe mode on and off.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo } from './kit.js';

/** The event envelopes `a3s run --json` printed. */
const eventsOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => parseEventEnvelopeV1(JSON.parse(l)));

const VIBE_TOOLS = ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'];
// One model serves the lead and its worker: the lead spawns and waits in one turn, so the next
// model calls are the worker's (it writes, then verifies its own change), and the lead's last one
// comes after the worker has finished. The worker's change is in the lead's change record too, so
// the lead verifies it before its run may end.
const conduct = [
  {
    tool_calls: [
      { id: 's1', name: 'vibe_spawn', args: { brief: 'Write NOTE.md saying hi.', label: 'note writer' } },
      { id: 'w1', name: 'vibe_wait', args: { worker_id: 'worker-1' } },
    ],
  },
  { tool_calls: [{ id: 'n1', name: 'write', args: { file_path: 'NOTE.md', content: 'hi\n' } }] },
  {
    tool_calls: [
      { id: 'v1', name: 'verify', args: { subject: 'note', commands: [{ id: 'has', command: 'grep -q hi NOTE.md' }] } },
    ],
  },
  {
    text: 'The worker wrote NOTE.md.',
    tool_calls: [
      {
        id: 'v2',
        name: 'verify',
        args: { subject: 'note', commands: [{ id: 'says', command: 'grep -qx hi NOTE.md' }] },
      },
    ],
  },
];

describe('a3s and vibe mode', () => {
  it('VIBE-01/VIBE-03: a3s run --vibe --json streams worker_spawned, worker_progress and worker_finished; the worker wrote the file', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    const status = await main(
      ['run', '--vibe', '--yolo', '--json', '--model', `scripted:${scriptFile(conduct)}`, '--cwd', dir, 'conduct'],
      h.io,
    );
    expect(status, h.stderr.text).toBe(0);
    const events = eventsOf(h.stdout.text);
    const worker = events.filter((e) => e.type.startsWith('worker_'));
    expect(worker[0]).toMatchObject({
      type: 'worker_spawned',
      payload: { worker_id: 'worker-1', label: 'note writer', tier: 'fast' },
    });
    expect(worker.map((e) => e.type)).toContain('worker_progress');
    expect(worker.at(-1)).toMatchObject({
      type: 'worker_finished',
      payload: { worker_id: 'worker-1', status: 'completed' },
    });
    expect(readFileSync(join(dir, 'NOTE.md'), 'utf8')).toBe('hi\n');
    const wait = events.find((e) => e.type === 'tool_end' && e.payload.id === 'w1');
    expect(JSON.parse(String(wait?.payload.output))).toMatchObject({ status: 'completed', done: true });
    // The lead's run ended verified: the worker's write reached its completion gate.
    expect(events.find((e) => e.type === 'agent_end')?.payload).toMatchObject({ completion: 'verified' });
  });

  it('VIBE-01/VIBE-02: a3s tools lists the five read-tier vibe tools only with --vibe', async () => {
    const dir = tempRepo();
    const listed = async (args: string[]) => {
      const h = ioHarness(dir);
      expect(await main(['tools', '--json', '--cwd', dir, ...args], h.io)).toBe(0);
      return JSON.parse(h.stdout.text) as { name: string; tier: string }[];
    };
    const on = await listed(['--vibe']);
    for (const name of VIBE_TOOLS) expect(on.find((t) => t.name === name)?.tier).toBe('read');
    const off = await listed([]);
    for (const name of VIBE_TOOLS) expect(off.map((t) => t.name)).not.toContain(name);
  });

  it('VIBE-01: /vibe in a3s code turns vibe mode on and off; the tools follow it', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    const done = main(['code', '--model', `scripted:${scriptFile([])}`, '--cwd', dir], h.io);
    const type = async (line: string, expected: string | RegExp) => {
      const from = h.screen.text.length;
      h.stdin.write(`${line}\n`);
      const seen = () => h.screen.text.slice(from);
      await until(
        () => (typeof expected === 'string' ? seen().includes(expected) : expected.test(seen())),
        () => h.screen.text,
      );
      return seen();
    };
    await until(
      () => h.screen.text.includes('› '),
      () => h.screen.text,
    );
    expect(await type('/tools', 'bash')).not.toContain('vibe_spawn');
    expect(await type('/vibe', 'vibe mode on')).toContain('vibe_spawn');
    expect(await type('/tools', 'vibe_spawn')).toContain('vibe_list');
    await type('/vibe off', 'vibe mode off');
    expect(await type('/tools', 'bash')).not.toContain('vibe_spawn');
    expect(await type('/vibe sideways', 'usage: /vibe')).toContain("not 'sideways'");
    h.stdin.write('/exit\n');
    expect(await done).toBe(0);
  });
});

// The lead spawns a fast worker and waits for it; the worker runs on the fast tier's own script.
const leadTurns = [
  {
    tool_calls: [
      { id: 's1', name: 'vibe_spawn', args: { brief: 'Report in one line.', label: 'reporter', tier: 'fast' } },
      { id: 'w1', name: 'vibe_wait', args: { worker_id: 'worker-1' } },
    ],
  },
  { text: 'The worker reported.' },
];

describe('the models of the vibe tiers', () => {
  it('VIBE-08: --vibe-tier fast=<model> runs fast workers on that model, the lead on its own', async () => {
    const dir = tempRepo();
    const h = ioHarness(dir);
    const fast = scriptFile([{ text: 'FAST TIER REPORT' }]);
    const status = await main(
      [
        'run',
        '--vibe',
        '--json',
        '--model',
        `scripted:${scriptFile(leadTurns)}`,
        '--vibe-tier',
        `fast=scripted:${fast}`,
        '--cwd',
        dir,
        'go',
      ],
      h.io,
    );
    expect(status, h.stderr.text).toBe(0);
    const events = eventsOf(h.stdout.text);
    const wait = events.find((e) => e.type === 'tool_end' && e.payload.id === 'w1');
    expect(String(wait?.payload.output)).toContain('FAST TIER REPORT');
    expect(events.find((e) => e.type === 'worker_spawned')?.payload).toMatchObject({ tier: 'fast' });
  });

  it('VIBE-08: a wrong --vibe-tier is a usage error (exit 2) naming the allowed tiers or the model syntax', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const cases: [string, RegExp][] = [
      ['slow=openai/gpt-4o', /--vibe-tier slow=openai\/gpt-4o: 'slow' is not a vibe tier; allowed: fast, good/],
      ['fast', /--vibe-tier fast: needs <tier>=<model>/],
      ['good=nosuch/model', /--vibe-tier good=nosuch\/model: unknown provider "nosuch"; allowed: openai, anthropic, /],
      ['fast=gpt-4o', /--vibe-tier fast=gpt-4o: expected 'provider\/model'/],
      ['fast=scripted:', /--vibe-tier fast=scripted:: scripted: needs the script file/],
    ];
    for (const [value, message] of cases) {
      const h = ioHarness(dir);
      expect(
        await main(['run', '--vibe', '--model', model, '--vibe-tier', value, '--cwd', dir, 'go'], h.io),
        value,
      ).toBe(2);
      expect(h.stderr.text, value).toMatch(message);
      expect(h.stderr.text.trimEnd().split('\n'), value).toHaveLength(1);
    }
  });
});
