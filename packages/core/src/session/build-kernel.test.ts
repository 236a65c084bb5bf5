/**
 * The session build kernel seen from the public entry points: options are a plain patch,
 * validated and resolved into one frozen `ResolvedSessionConfig` the session is built from,
 * by every way of opening a session; the synchronous build does no asynchronous work.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { createTestToolPack, ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { MemorySessionStore } from './memory-session-store.js';
import { Agent } from './agent.js';
import type { SessionOptions } from './session-options.js';

const { sessions } = closeAfterEach();

const echoes = (n: number): ScriptedTurn => ({
  tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 'echo', args: { text: String(i) } })),
});

async function agentWith(turns: ScriptedTurn[] = [], extra: Record<string, unknown> = {}) {
  const ws = workspace();
  const test = createTestToolPack();
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns),
    tools: [test.pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
    toolBudget: 2,
    system: ['agent context'],
    ...extra,
  });
  return { agent, dir: ws.dir, state: test.state };
}

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('session build', () => {
  it('ARCH-02: config and options are validated, merged and resolved into one frozen ResolvedSessionConfig the session runs from', async () => {
    const { agent, dir, state } = await agentWith([echoes(4), { text: 'done' }]);
    // Validation comes first: a bad option opens nothing in the workspace.
    await expect(agent.session(dir, { toolBudget: -1 })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION' });
    expect(existsSync(join(dir, '.a3s'))).toBe(false);

    const session = await agent.session(dir, { toolBudget: 3, questionCap: 2, sessionId: 'arch-02' });
    sessions.push(session);
    const config = session.config;
    expect(Object.isFrozen(config)).toBe(true);
    // One value: the option overrides the agent's setting, the agent's other settings are kept, resources are open.
    expect(config).toMatchObject({ sessionId: 'arch-02', questionCap: 2, recipe: { tool_budget: 3 }, dir });
    expect(config.system).toEqual(['agent context']);
    expect(session.store).toBe(config.factStore);
    expect(existsSync(join(dir, '.a3s', 'effect-log', 'arch-02.jsonl'))).toBe(true);
    // The run obeys the resolved value (3), not the agent's (2): the 4th call is denied.
    await session.send('four calls');
    expect(state.executions).toHaveLength(3);
    expect(session.store.log.facts.filter((f) => f.type === 'budget.denied')).toHaveLength(1);
  });

  it('BUILD-01: options are a plain patch: never mutated, reusable for independent sessions, and runtime objects are refused', async () => {
    const { agent, dir } = await agentWith([{ text: 'a' }, { text: 'b' }]);
    const options: SessionOptions = Object.freeze({
      persistence: 'memory' as const,
      maxToolRounds: 4,
      permissions: Object.freeze({ deny: Object.freeze(['run']) }),
    });
    const before = JSON.stringify(options);
    const a = await agent.session(dir, options);
    const b = await agent.session(dir, options);
    sessions.push(a, b);
    expect(JSON.stringify(options)).toBe(before);
    // Nothing in the options was shared state: each session has its own id, log and results.
    expect(a.sessionId).not.toBe(b.sessionId);
    expect(a.store).not.toBe(b.store);
    await a.send('one');
    expect(a.store.log.length).toBeGreaterThan(0);
    expect(b.store.log.length).toBe(0);
    // Half-built runtime state is no option.
    for (const key of ['factStore', 'invoker', 'registry', 'folder', 'resolved']) {
      await expect(agent.session(dir, { [key]: {} } as never)).rejects.toMatchObject({
        code: 'SESSION_CONFIGURATION',
        field: key,
      });
    }
  });

  it('BUILD-05: session, resumeSession and sessionSync share one build kernel: the same options resolve the same way and fail the same way', async () => {
    const store = new MemorySessionStore();
    const { agent, dir } = await agentWith([], { persistence: 'memory', sessionStore: store });
    const options = { toolBudget: 5, maxToolRounds: 2, questionCap: 3, steerCapacity: 4, system: ['s'] };
    const first = await agent.session(dir, { ...options, sessionId: 'build-05' });
    sessions.push(first);
    await first.save();
    const resumed = await agent.resumeSession('build-05', { ...options, dir });
    const sync = agent.sessionSync(dir, options);
    sessions.push(resumed, sync);
    const settings = (c: typeof first.config) => ({
      recipe: c.recipe,
      questionCap: c.questionCap,
      steerCapacity: c.steerCapacity,
      system: c.system,
      permissions: c.permissions,
      parkMode: c.parkMode,
      persistence: c.persistence,
      delegation: c.delegation,
      dir: c.dir,
    });
    expect(settings(resumed.config)).toEqual(settings(first.config));
    expect(settings(sync.config)).toEqual(settings(first.config));
    for (const c of [first.config, resumed.config, sync.config]) expect(Object.isFrozen(c)).toBe(true);
    // The same bad option is the same typed error on every path.
    const bad = { maxToolRounds: 2, recipe: { max_tool_rounds: 3 } } as never;
    const errors = [
      await agent.session(dir, bad).catch((e: unknown) => e),
      await agent.resumeSession('build-05', { ...(bad as object), dir }).catch((e: unknown) => e),
      caught(() => agent.sessionSync(dir, bad)),
    ] as { code: string; field: string; message: string }[];
    expect(errors.map((e) => [e.code, e.field, e.message])).toEqual(
      Array(3).fill([errors[0]!.code, errors[0]!.field, errors[0]!.message]),
    );
    expect(errors[0]!.code).toBe('SESSION_CONFIGURATION');
  });
});

describe('synchronous build', () => {
  it('BUILD-10: sessionSync does no asynchronous work: it returns the session itself and leaves no pending handles, timers or files', async () => {
    const { agent, dir } = await agentWith([{ text: 'ok' }], { persistence: 'memory' });
    const before = process.getActiveResourcesInfo().slice().sort();
    const session = agent.sessionSync(dir);
    const after = process.getActiveResourcesInfo().slice().sort();
    sessions.push(session);
    expect(session).not.toBeInstanceOf(Promise);
    expect(typeof (session as unknown as { then?: unknown }).then).toBe('undefined');
    expect(after).toEqual(before);
    expect(readdirSync(dir)).toEqual([]);
    // It is complete as returned: it runs at once.
    expect(session.toolNames()).toContain('echo');
    expect((await session.send('hi')).text).toBe('ok');
  });

  it('BUILD-12: MCP servers given in the session options always need async discovery: sessionSync refuses them, naming the server', async () => {
    const { agent, dir } = await agentWith([], { persistence: 'memory' });
    for (const [name, server] of [
      ['github', { command: 'gh-mcp' }],
      ['remote', { url: 'http://127.0.0.1:9/mcp' }],
    ] as const) {
      const e = caught(() => agent.sessionSync(dir, { mcpServers: { [name]: server } }));
      expect(e).toMatchObject({ code: 'ASYNC_SESSION_BUILD_REQUIRED', resource: `mcpServers.${name}` });
      expect((e as Error).message).toMatch(/asynchronous discovery/);
    }
    // Without them the same agent builds synchronously: no easier backend stood in for the servers.
    const plain = agent.sessionSync(dir);
    sessions.push(plain);
    expect(plain.config.mcpServers).toEqual({});
  });
});
