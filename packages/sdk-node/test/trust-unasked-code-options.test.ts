// A rule allowing a command unasked (`Bash(npm test:*)`, `Bash(python3 -c:*)`, `Bash(make test:*)`)
// does not let the model bring code of its own into it: npm's `--node-options` (Node's options
// for every script, which may preload a module given as its code), a module of the working folder
// that `python3 -c` imports after writing it, and a variable given to make naming the program a
// recipe runs. Each such command is opaque: with no approver it is refused (which ends the run),
// and nothing runs.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, NO_APPROVER_REASON, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
const made: string[] = [];
let npmCache: string | undefined;
const saved = process.env.npm_config_cache;
beforeAll(() => {
  // npm keeps its cache and logs here rather than in the home folder.
  npmCache = mkdtempSync(join(tmpdir(), 'a3s-npm-'));
  made.push(npmCache);
  process.env.npm_config_cache = npmCache;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => {
  if (saved === undefined) delete process.env.npm_config_cache;
  else process.env.npm_config_cache = saved;
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const bash = (id: string, command: string): ScriptedTurn => ({ tool_calls: [{ id, name: 'bash', args: { command } }] });

/** Runs the turns in a repository with a test script and a Makefile, with `allow` and `deny` rules and no approver. */
async function run(turns: ScriptedTurn[], allow: string[], deny: string[] = []) {
  const dir = tempRepo();
  made.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { test: 'node -e 0' } }));
  writeFileSync(join(dir, 'Makefile'), 'CC ?= echo\n.PHONY: test\ntest:\n\t$(CC) --version\n');
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    permissions: { allow, deny },
  });
  opened.push(session);
  await session.send('go').catch(() => undefined);
  const refused = session.core.store.log.facts
    .filter((f) => f.type === 'confirmation.answered')
    .map((f) => f.payload as { tool_call_id: string; approved: boolean; reason: string });
  return { dir, got: toolResults(session), refused };
}

const refusedUnasked = (id: string) => ({ tool_call_id: id, approved: false, reason: NO_APPROVER_REASON });
const hex = (s: string) => Buffer.from(s).toString('hex');

describe('a command allowed unasked, given code of its own through an option, an import or a variable', () => {
  it('PERM-02: npm test --node-options preloading a module given as its code is refused; npm test alone runs', async () => {
    const code = "(await%20import('node:fs')).writeFileSync('pwned-npm','x')";
    const line = `npm test --node-options="--import=data:text/javascript,${code}"`;
    const { dir, got, refused } = await run([bash('n2', 'npm test'), bash('n1', line)], ['Bash(npm test:*)']);
    expect(refused).toEqual([expect.objectContaining(refusedUnasked('n1'))]);
    expect(existsSync(join(dir, 'pwned-npm'))).toBe(false);
    expect(got.get('n2')).toMatchObject({ ok: true });
    // With a Bash deny rule, as the finding was reported, the deny rule holds for it.
    const denied = await run([bash('n3', line)], ['Bash(npm test:*)'], ['Bash(rm:*)']);
    expect(denied.got.get('n3')).toMatchObject({ ok: false, output: 'Permission denied: Bash(rm:*)' });
    expect(existsSync(join(denied.dir, 'pwned-npm'))).toBe(false);
  });

  it('PERM-02: python3 -c writing a module and importing it is refused; standard-library code runs unasked', async () => {
    const module = "open('pwned-py','w').write('x')\n";
    const { dir, got, refused } = await run(
      [
        bash('p2', `python3 -c "import json; print(json.dumps([1]))"`),
        bash('p1', `python3 -c "open('m.py','w').write(bytes.fromhex('${hex(module)}').decode()); import m"`),
      ],
      ['Bash(python3 -c:*)'],
    );
    expect(refused).toEqual([expect.objectContaining(refusedUnasked('p1'))]);
    expect(existsSync(join(dir, 'm.py'))).toBe(false);
    expect(existsSync(join(dir, 'pwned-py'))).toBe(false);
    expect(got.get('p2')).toMatchObject({ ok: true, output: expect.stringContaining('[1]') });
  });

  it('PERM-02: make test with CC naming another program is refused; make test alone runs', async () => {
    const { dir, got, refused } = await run(
      [bash('m2', 'make test'), bash('m1', "make test CC='touch pwned-make;true'")],
      ['Bash(make test:*)'],
    );
    expect(refused).toEqual([expect.objectContaining(refusedUnasked('m1'))]);
    expect(existsSync(join(dir, 'pwned-make'))).toBe(false);
    expect(got.get('m2')).toMatchObject({ ok: true, output: expect.stringContaining('--version') });
  });
});
