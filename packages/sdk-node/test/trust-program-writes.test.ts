// A rule naming a program (`Bash(sed:*)`, `Bash(awk:*)`, `Bash(gzip:*)`, `Bash(chmod:*)`) lets it
// run unasked on the workspace; a command whose own script or arguments write outside it (sed's
// `w`, awk's `print > "…"`, the file gzip makes beside its operand, the file chmod changes) is not
// what the rule allows: it asks, and when the person refuses, nothing outside changes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { ConfirmationRequest } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bash = (id: string, command: string): ScriptedTurn => ({ tool_calls: [{ id, name: 'bash', args: { command } }] });
const ALLOW = ['Bash(sed:*)', 'Bash(awk:*)', 'Bash(gzip:*)', 'Bash(chmod:*)'];

/** Runs the turns in `dir` under `ALLOW`, with an approver that refuses (and records) every question. */
async function run(dir: string, turns: ScriptedTurn[]) {
  const asked: string[] = [];
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    permissions: { allow: ALLOW },
    onConfirm: (r: ConfirmationRequest) => {
      asked.push(r.toolId);
      return { approved: false, reason: 'not here' };
    },
  });
  opened.push(session);
  await session.send('go').catch(() => undefined);
  return { asked, got: toolResults(session) };
}

describe('a program allowed by name writing outside the workspace through its own script or arguments', () => {
  it('PERM-03: Bash(sed:*), Bash(awk:*), Bash(gzip:*) and Bash(chmod:*) ask for it; inside they run unasked', async () => {
    const dir = tempRepo();
    const outside = mkdtempSync(join(tmpdir(), 'a3s-outside-'));
    made.push(dir, outside);
    const out = relative(dir, outside);
    mkdirSync(join(outside, 'bin'));
    const tool = join(outside, 'bin', 'tool');
    writeFileSync(tool, '#!/bin/sh\necho tool\n', { mode: 0o644 });
    writeFileSync(join(outside, 'victim'), 'keep me\n');
    for (const [id, command] of [
      ['s1', `sed -n 'w ${out}/bin/tool' README.md`],
      ['a1', `awk 'BEGIN { print "#!/bin/sh" > "${out}/evil" }'`],
      ['c1', `chmod +x ${out}/bin/tool`],
      ['g1', `gzip ${out}/victim`],
    ] as const) {
      const { asked } = await run(dir, [bash(id, command)]);
      expect(asked, command).toEqual([id]);
    }
    expect(readFileSync(tool, 'utf8')).toBe('#!/bin/sh\necho tool\n');
    expect(statSync(tool).mode & 0o111).toBe(0);
    expect(existsSync(join(outside, 'evil'))).toBe(false);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(outside, 'victim.gz'))).toBe(false);

    writeFileSync(join(dir, 'script.sh'), '#!/bin/sh\necho ok\n', { mode: 0o644 });
    const { asked, got } = await run(dir, [
      bash('i1', "sed -n '1,2p' README.md"),
      bash('i2', "awk '{ print $1 }' README.md"),
      bash('i3', 'gzip -c README.md > out.gz'),
      bash('i4', 'chmod +x ./script.sh'),
    ]);
    expect(asked).toEqual([]);
    expect(got.get('i1')).toMatchObject({ ok: true, output: expect.stringContaining('# demo') });
    expect(got.get('i2')).toMatchObject({ ok: true });
    expect(existsSync(join(dir, 'out.gz'))).toBe(true);
    expect(statSync(join(dir, 'script.sh')).mode & 0o100).not.toBe(0);
  });
});
