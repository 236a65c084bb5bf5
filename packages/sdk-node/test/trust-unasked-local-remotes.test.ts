// A remote on this machine (a local path or a file:// URL) is served by a git that git starts
// without the settings a command allowed unasked runs with, in that repository's own
// configuration: its hooks (`pre-receive`), `core.alternateRefsCommand` and `tar.<format>.command`
// would run programs nobody was asked about. Such a command does not reach the repository, says
// why, and a person's approval still lets it.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { runRefusing, tempRepo } from './kit.js';

const opened: Session[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bash = (id: string, command: string): ScriptedTurn => ({ tool_calls: [{ id, name: 'bash', args: { command } }] });

/** A workspace holding a bare repository `sub.git` whose hook, alternate-refs command and archive filter touch `marker`. */
function planted(): { dir: string; marker: string } {
  const dir = tempRepo();
  made.push(dir);
  const marker = join(dir, 'RAN');
  const sub = join(dir, 'sub.git');
  execFileSync('git', ['init', '-q', '--bare', sub]);
  writeFileSync(join(sub, 'hooks', 'pre-receive'), `#!/bin/sh\necho hook >> '${marker}'\n`);
  chmodSync(join(sub, 'hooks', 'pre-receive'), 0o755);
  const config = (key: string, value: string) =>
    execFileSync('git', ['config', '--file', join(sub, 'config'), key, value]);
  config('core.alternateRefsCommand', `sh -c 'echo refs >> ${marker}'`);
  config('tar.evil.command', `sh -c 'echo tar >> ${marker}; cat'`);
  config('uploadarchive.allowUnreachable', 'true');
  return { dir, marker };
}

describe('a command allowed unasked and a repository on this machine', () => {
  it.each([
    ['git push ./sub.git HEAD:refs/heads/x'],
    ['git push "file://$PWD/sub.git" HEAD:refs/heads/x'],
    ['git fetch ./sub.git'],
    ['git ls-remote ./sub.git'],
    ['git archive --remote=./sub.git --format=evil HEAD > out.tar'],
    ['git push . HEAD:refs/heads/y'],
  ])('PERM-03: %s under Bash(git:*) runs none of its programs, asks nobody, and says why', async (command) => {
    const { dir, marker } = planted();
    const { asked, got } = await runRefusing(opened, dir, [bash('c1', command)], { allow: ['Bash(git:*)'] });
    expect(asked).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(got.get('c1')?.output).toContain("transport 'file' not allowed");
    expect(got.get('c1')?.output).toContain('cannot reach a repository on this machine');
  });

  it('PERM-03: the same push approved by a person reaches the repository (and its hook runs)', async () => {
    const { dir, marker } = planted();
    const model = new ScriptedLlmClient([bash('c1', 'git push ./sub.git HEAD:refs/heads/x'), { text: 'Done.' }]);
    const session = await (await Agent.create({ model })).session(dir, {
      gate: { continuation: { enabled: false } },
      onConfirm: () => ({ approved: true }),
    });
    opened.push(session);
    await session.send('go').catch(() => undefined);
    expect(readFileSync(marker, 'utf8')).toContain('hook');
  });
});
