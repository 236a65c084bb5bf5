import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { A3sError } from '@a3s-code/effect';
import { Agent } from '../session/agent.js';
import { createTestToolPack, ScriptedLlmClient } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';

/** A session with the test pack and a `bash` tool that records the commands it would run. */
async function session(hooks: object) {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-hook-matcher-'));
  const test = createTestToolPack();
  const ran: string[] = [];
  const shell = defineToolPack({
    name: 'shell',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'bash',
        description: 'Run a command.',
        tier: 'read',
        input: z.object({ command: z.string() }).strict(),
        execute: async (args) => {
          ran.push(args.command);
          return { output: 'ran', exitCode: 0 };
        },
      }),
    ],
  });
  const agent = await Agent.create({
    model: new ScriptedLlmClient([]),
    tools: [test.pack, shell],
    permissions: { defaultDecision: 'allow' },
    persistence: 'memory',
    hooks,
  });
  return { s: await agent.session(dir), ran, state: test.state };
}

const BLOCK = 'echo "guarded" >&2; exit 2';

describe('command hook matchers', () => {
  it.each(['bash', 'Bash', 'BASH', 'echo|bash', 'Add | Bash', 'Bash(echo:*)', 'Bash(echo *)', 'mcp__x__*|bash'])(
    'a pre-hook with matcher %j runs for the bash tool',
    async (matcher) => {
      const { s, ran } = await session({ pre: [{ matcher, command: BLOCK }] });
      const r = await s.tool('bash', { command: 'echo RAN' });
      expect(r.output).toContain('guarded');
      expect(ran).toEqual([]);
      await s.close();
    },
  );

  it('a matcher in rule form runs the hook only for the calls its pattern holds for, as a deny rule would', async () => {
    const { s, ran } = await session({ pre: [{ matcher: 'Bash(rm:*)', command: BLOCK }] });
    expect((await s.tool('bash', { command: 'ls' })).output).toBe('ran');
    expect((await s.tool('bash', { command: 'ls && rm -rf x' })).output).toContain('guarded');
    expect(ran).toEqual(['ls']);
    await s.close();
  });

  it('alternatives run the hook for each tool they name and no other', async () => {
    const { s, state } = await session({ post: [{ matcher: 'Echo|ADD', command: 'exit 1' }] });
    expect((await s.tool('echo', { text: 'hi' })).exitCode).not.toBe(0);
    expect((await s.tool('add', { a: 1, b: 2 })).exitCode).not.toBe(0);
    expect((await s.tool('bash', { command: 'ls' })).exitCode).toBe(0);
    expect(state.executions.map((e) => e.tool)).toEqual(['echo', 'add']);
    await s.close();
  });

  it.each([
    [
      'Bsh',
      /hooks\.pre\[0\]\.matcher: 'Bsh' names no tool of this session \(did you mean 'bash'\?\).*never runs.*echo, add/,
    ],
    ['echo|bsah', /hooks\.pre\[0\]\.matcher: 'bsah' names no tool.*did you mean 'bash'/],
    [
      'Shell(rm:*)',
      /'Shell\(rm:\*\)' names no tool of this session: 'Shell' is another agent's name for what is 'bash' here \(write bash\(rm:\*\)\)/,
    ],
    ['rm', /'rm' names no tool of this session: 'rm' is a program, which 'bash' runs \(write Bash\(rm:\*\)\)/],
    ['frobnicate', /'frobnicate' names no tool of this session; a hook whose matcher names no tool never runs/],
  ])('a matcher %j naming no tool is refused when the session is built', async (matcher, message) => {
    const e = await session({ pre: [{ matcher, command: 'true' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(A3sError);
    expect((e as A3sError).code).toBe('SESSION_CONFIGURATION');
    expect((e as Error).message).toMatch(message);
    expect((e as A3sError).details).toMatchObject({ field: 'hooks.pre[0].matcher' });
    expect((e as A3sError).details?.allowed).toContain('bash');
  });

  it('a post-hook is named by its own list and index', async () => {
    const e = await session({ post: [{ command: 'true' }, { matcher: 'Raed', command: 'true' }] }).catch(
      (x: unknown) => x,
    );
    expect((e as Error).message).toMatch(/^session configuration: hooks\.post\[1\]\.matcher: 'Raed'/);
  });

  it.each([
    ['bash|', /empty alternative/],
    ['Bash(', /malformed rule/],
    ['Bash()', /empty pattern/],
  ])('a matcher %j that is no rule is refused', async (matcher, message) => {
    const e = await session({ pre: [{ matcher, command: 'true' }] }).catch((x: unknown) => x);
    expect((e as A3sError).code).toBe('SESSION_CONFIGURATION');
    expect((e as Error).message).toMatch(/hooks\.pre\[0\]\.matcher/);
    expect((e as Error).message).toMatch(message);
  });

  it('an mcp__ name and a glob are not checked against the tools there are (they may come later)', async () => {
    const { s, ran } = await session({
      pre: [
        { matcher: 'mcp__github__create_issue', command: BLOCK },
        { matcher: 'later_*', command: BLOCK },
      ],
    });
    expect((await s.tool('bash', { command: 'ls' })).output).toBe('ran');
    expect(ran).toEqual(['ls']);
    await s.close();
  });
});
