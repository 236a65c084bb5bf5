// A host's file rule in a spelling that names no file it can mean: white space inside the
// parentheses (`Read(.env )`), quotes (`Read(".env")`), an environment variable
// (`Read($HOME/.ssh/**)`, never expanded), a list (`Read(.env, secret/**)`), brace alternatives
// (`Read({.env,secret})`) or the agent's own `/proc/self/cwd`. Each used to be accepted and to
// match nothing, so the secret it was meant to keep was read in silence. Each is now refused when
// the session opens, naming the rule and the spelling to use; `/proc/self/root/<path>` is read
// as `<path>` and holds.
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { call, expectNoLeak, results, run, SECRET, workspace } from './read-deny-kit.js';

async function refused(rule: string): Promise<string> {
  const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
  const error = await agent.session(workspace(), { permissions: { deny: [rule] } }).then(
    async (s) => {
      await s.close();
      return undefined;
    },
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(error, rule).toBeDefined();
  expect(error?.code).toBe('INVALID_PERMISSION_RULE');
  return error!.message;
}

describe('a file rule that would protect nothing is refused', () => {
  it('white space or quotes around the path are refused, naming the spelling to use', async () => {
    for (const rule of ['Read(.env )', 'Read( .env)', 'Read(.env\t)'])
      expect(await refused(rule)).toContain(
        'starts or ends with white space, which no file name the rule means has; write Read(.env)',
      );
    for (const rule of ['Read(".env")', "Read('.env')"])
      expect(await refused(rule)).toContain('quotes are not part of a path pattern; write Read(.env)');
  });

  it('an environment variable, a list, brace alternatives and /proc/self/cwd are refused', async () => {
    expect(await refused('Read($HOME/.ssh/**)')).toContain("'$HOME' is not expanded in rules");
    expect(await refused('Edit(${PWD}/secret/**)')).toContain("'${PWD}' is not expanded in rules");
    expect(await refused('Read(.env, secret/**)')).toContain('a rule takes one path pattern; write one rule per path');
    expect(await refused('Write({.env,secret/**})')).toContain('brace alternatives ({a,b}) are not supported');
    expect(await refused('Read(/proc/self/cwd/.env)')).toContain(
      "'/proc/self/cwd' is the folder of the agent's own process",
    );
  });

  it('a bracket set ([t], [a-z], [!x]), which rules read as itself, is refused', async () => {
    for (const rule of ['Read(secre[t]/**)', 'Read(secret/key.tx[t])', 'Read(secret/[a-z]*.txt)', 'Read([!.]env)'])
      expect(await refused(rule)).toContain(
        'would be a set of characters in a shell, but rules read [ and ] as themselves',
      );
  });

  it('a command rule keeps its quotes and variables, and a literal [id] path is still a rule', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    const s = await agent.session(workspace(), {
      permissions: {
        deny: ['Bash(echo "$HOME")', 'Read(pages/[id].tsx)', 'Read(app/[...slug]/page.tsx)', 'Read(a,b.txt)'],
      },
    });
    await s.close();
  });

  it('PERM-02: Read(/proc/self/root/<workspace>/.env) holds for read, grep and a link to it', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        call('r1', 'read', { file_path: '.env' }),
        call('r2', 'read', { file_path: 'alias' }),
        call('g1', 'grep', { pattern: 'hunter2', path: '.' }),
      ],
      { permissions: { deny: [`Read(/proc/self/root${dir}/.env)`] } },
    );
    expect(results(session).get('r1')?.output).toBe(`Permission denied: Read(/proc/self/root${dir}/.env)`);
    expectNoLeak(dir, session, events, [SECRET]);
  });
});
