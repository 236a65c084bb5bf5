import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../session/agent.js';
import { createTestToolPack, ScriptedLlmClient } from '../testing/index.js';

async function session(hooks: object) {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-hooks-'));
  const test = createTestToolPack();
  const agent = await Agent.create({
    model: new ScriptedLlmClient([]),
    tools: [test.pack],
    permissions: { defaultDecision: 'allow' },
    persistence: 'memory',
    hooks,
  });
  return { s: await agent.session(dir), state: test.state, dir };
}

describe('declarative command hooks', () => {
  it('a pre-hook whose command exits non-zero blocks matching calls (stderr is the reason); others run', async () => {
    const { s, state } = await session({ pre: [{ matcher: 'ech*', command: 'echo "no echo today" >&2; exit 3' }] });
    const blocked = await s.tool('echo', { text: 'hi' });
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.output).toContain('no echo today');
    expect((await s.tool('add', { a: 1, b: 2 })).output).toBe('3');
    expect(state.executions.map((e) => e.tool)).toEqual(['add']);
    await s.close();
  });

  it('a pre-hook that exits 0 lets the call run and sees the call as JSON on stdin', async () => {
    const { s, state, dir } = await session({ pre: [{ command: 'cat > seen.json' }] });
    expect((await s.tool('echo', { text: 'hi' })).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8'))).toMatchObject({
      call: { name: 'echo', args: { text: 'hi' }, source: 'host' },
    });
    expect(state.executions).toHaveLength(1);
    await s.close();
  });

  it('a hook past its deadline is killed and blocks the call', async () => {
    const { s, state } = await session({ pre: [{ command: 'sleep 5', timeoutMs: 100 }] });
    const r = await s.tool('echo', { text: 'hi' });
    expect(r.output).toContain('timed out after 100 ms');
    expect(state.executions).toHaveLength(0);
    await s.close();
  });

  it('a post-hook that exits non-zero marks the result failed', async () => {
    const { s } = await session({ post: [{ matcher: 'add', command: 'exit 1' }] });
    const r = await s.tool('add', { a: 1, b: 2 });
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('post-hook hooks.post[0] failed');
    await s.close();
  });

  it.each([
    [
      'a block decision cut at the capture limit',
      `printf '{"decision":"block","reason":"'; head -c 70000 /dev/zero | tr '\\0' x; printf '"}'`,
      'more than 65536 bytes',
    ],
    ['an unknown decision', `echo '{"decision":"blokc"}'`, 'unknown decision "blokc"'],
    ['a decision that is not valid JSON', `echo '{"decision":"block",'`, 'not valid JSON'],
    ['modify without args', `echo '{"decision":"modify"}'`, '"modify" decision needs "args"'],
    [
      'modify with args that are no object',
      `echo '{"decision":"modify","args":"x"}'`,
      '"modify" decision needs "args"',
    ],
  ])('TOOL-02: a pre-hook printing %s fails closed and names what is allowed', async (_what, command, problem) => {
    const { s, state } = await session({ pre: [{ command }] });
    const r = await s.tool('echo', { text: 'hi' });
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toContain(problem);
    expect(r.output).toContain('hooks.pre[0]');
    expect(state.executions).toHaveLength(0);
    await s.close();
  });

  it('TOOL-02: a post-hook printing an unknown decision marks the result failed', async () => {
    const { s } = await session({ post: [{ matcher: 'add', command: `echo '{"decision":"blok"}'` }] });
    const r = await s.tool('add', { a: 1, b: 2 });
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('unknown decision "blok"');
    await s.close();
  });

  it('a hook whose background descendant leaves the group and keeps stdout open does not hold the call', async () => {
    const { s, state } = await session({
      pre: [{ command: `setsid sleep 60 & echo '{"decision":"continue"}'`, timeoutMs: 600_000 }],
    });
    const started = Date.now();
    const r = await s.tool('echo', { text: 'hi' });
    expect(r.exitCode).toBe(0);
    expect(state.executions).toHaveLength(1);
    // Without the drain the call waits for the 60 s sleeper.
    expect(Date.now() - started).toBeLessThan(45_000);
    await s.close();
  }, 90_000);
});
