import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../session/agent.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { createTestToolPack, ScriptedLlmClient } from '../testing/index.js';
import { fakeModelResolver } from '../../test/model-resolver-kit.js';
import { loadCodeConfig, parseCodeConfig } from './load-config.js';
import { mergeLayers, normalizeLayer } from './merge-config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'a3s-config-'));
const model = () => new ScriptedLlmClient([{ text: 'ok' }]);

describe('BUILD-07/08: each invalid configuration names its key path and the allowed values', () => {
  it.each([
    [{ model: 'gpt-4o' }, 'model', /provider\/model/],
    [{ model: 'nope/x' }, 'model', /allowed: openai, anthropic/],
    [{ providers: { nope: {} } }, 'providers.nope', /allowed: openai/],
    [{ providers: { openai: { baseUrl: 'ftp://x' } } }, 'providers.openai.baseUrl', /absolute http\(s\) URL/],
    [{ providers: { openai: { apiKeyEnv: 'sk-abc 123' } } }, 'providers.openai.apiKeyEnv', /environment variable name/],
    [{ providers: { openai: { token: 'x' } } }, 'providers.openai.token', /allowed keys: baseUrl, apiKeyEnv, headers/],
    [{ permissions: { deny: ['ok', 3] } }, 'permissions.deny[1]', /permission rule/],
    [{ permissions: { defaultDecision: 'maybe' } }, 'permissions.defaultDecision', /'allow', 'deny', 'ask'/],
    [{ permissions: { allowed: [] } }, 'permissions.allowed', /allowed keys: allow, deny, ask, defaultDecision/],
    [{ mcpServers: { bad__name: { command: 'x' } } }, 'mcpServers.bad__name', /server name/],
    [{ mcpServers: { gh: { command: 'x', url: 'http://y' } } }, 'mcpServers.gh', /exactly one of `command`/],
    [{ mcpServers: { gh: 'npx gh' } }, 'mcpServers.gh', /`command`.*`url`/],
    [{ mcpServers: { x: { command: 5 } } }, 'mcpServers.x.command', /must be a non-empty string/],
    [{ mcpServers: { x: { url: 'ftp://x' } } }, 'mcpServers.x.url', /must be an http:\/\/ or https:\/\/ URL/],
    [{ skillDirs: 'skills' }, 'skillDirs', /array of folder paths/],
    [{ agentDirs: [''] }, 'agentDirs[0]', /folder path/],
    [{ budgets: { llm: { maxTokens: 0 } } }, 'budgets.llm.maxTokens', /integer from 1/],
    [{ budgets: { toolCalls: { limit: -1 } } }, 'budgets.toolCalls.limit', /integer from 0 to 1000000/],
    [{ budgets: { tools: {} } }, 'budgets.tools', /allowed keys: llm, toolCalls/],
    [{ toolBudget: 10_001 }, 'toolBudget', /integer from 0 to 10000/],
    [{ maxToolRounds: 1.5 }, 'maxToolRounds', /integer from 0 to 10000/],
    [{ compactThresholdChars: 0 }, 'compactThresholdChars', /integer from 1/],
    [{ compactThresholdTokens: -5 }, 'compactThresholdTokens', /integer from 1/],
    [{ hooks: { pre: [{ matcher: 'write_*' }] } }, 'hooks.pre[0].command', /shell command/],
    [{ hooks: { pre: [{ command: 'true', timeoutMs: 0 }] } }, 'hooks.pre[0].timeoutMs', /integer from 1 to 600000/],
    [{ hooks: { during: [] } }, 'hooks.during', /allowed keys: pre, post/],
    [{ persistence: 'disk' }, 'persistence', /'file', 'memory'/],
    [{ sessionStore: 'sqlite' }, 'sessionStore', /'file', 'memory'/],
    [{ parkMode: 'later' }, 'parkMode', /'wait', 'return'/],
    [{ questionCap: 101 }, 'questionCap', /integer from 0 to 100/],
    [{ steerCapacity: 0 }, 'steerCapacity', /integer from 1 to 1024/],
    [{ system: [1] }, 'system[0]', /string/],
    [{ modle: 'openai/gpt-4o' }, 'modle', /is not a known key; allowed keys: model, providers/],
  ])('JSON %j → %s', (config, field, message) => {
    const e = (() => {
      try {
        parseCodeConfig(config, 'a3s.config.json');
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field });
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).toContain('a3s.config.json');
  });

  it.each([
    [{ model: 42 }, 'model', /'provider\/model' or an LlmClient/],
    [{ tools: 'all' }, 'tools', /array of tool packs/],
    [{ onQuestion: 'ask' }, 'onQuestion', /function/],
    [{ llmRetry: { maxRetries: 'lots' } }, 'llmRetry.maxRetries', /integer from 0 to 10/],
    [{ llmRetry: { maxRetries: -1 } }, 'llmRetry.maxRetries', /integer from 0 to 10/],
    [{ llmRetry: { baseDelayMs: -1000 } }, 'llmRetry.baseDelayMs', /integer from 0 to 600000/],
    [{ llmRetry: { maxDelayMs: 1e12 } }, 'llmRetry.maxDelayMs', /integer from 0 to 3600000/],
    [{ llmRetry: { retries: 3 } }, 'llmRetry.retries', /allowed keys: maxRetries, baseDelayMs, maxDelayMs/],
    [{ hooks: { pre: [{ name: 'x' }] } }, 'hooks.pre[0].command', /shell command/],
    [{ hooks: { post: [{ after: () => undefined }] } }, 'hooks.post[0].name', /naming the hook/],
    // A programmatic hook whose method is not a function is told that, never to give a `command`.
    [
      { hooks: { pre: [{ name: 'x', before: 5 }] } },
      'hooks.pre[0].before',
      /must be a function before\(call\), got number/,
    ],
    [
      { hooks: { post: [{ name: 'x', after: 'log' }] } },
      'hooks.post[0].after',
      /function after\(call, result\), got string/,
    ],
    [{ sessionStore: 7 }, 'sessionStore', /'file', 'memory' or a SessionStore/],
    [{ maxToolRounds: -1 }, 'maxToolRounds', /integer from 0 to 10000/],
    [{ compactThresholdChars: 0 }, 'compactThresholdChars', /integer from 1/],
    [{ recipe: { completion_gate: false } }, 'recipe.completion_gate', /cannot be configured/],
    [{ sessionId: '' }, 'sessionId', /1 to 1024/],
    [{ history: [{ role: 'system', content: 'x' }] }, 'history[0].role', /'user', 'assistant'/],
    [{ governance: { yolo: 'true' } }, 'governance.yolo', /must be true or false/],
    [{ governance: { mode: 'Plan' } }, 'governance.mode', /'default' or 'plan'/],
    [{ governance: { plan: true } }, 'governance.plan', /allowed keys: mode, readOnly, yolo/],
    [{ governance: { readOnly: 1 } }, 'governance.readOnly', /must be true or false/],
    [{ governance: { tiers: ['admin'] } }, 'governance.tiers[0]', /'read', 'write', 'exec'/],
    [{ governance: { restrictions: [{ allowedTools: ['read'] }] } }, 'governance.restrictions[0].name', /string/],
  ])('options %j → %s', async (options, field, message) => {
    const agent = await Agent.create({ model: model(), persistence: 'memory' });
    const e = await agent.session(dir(), options as never).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field });
    expect((e as Error).message).toMatch(message);
  });

  it('Agent.create(path) loads a3s.config.json or .a3s/config.json and names the file in errors', async () => {
    const a = dir();
    writeFileSync(
      join(a, 'a3s.config.json'),
      JSON.stringify({ maxToolRounds: 2, permissions: { deny: ['write_note'] } }),
    );
    expect((await Agent.create(a)).config).toMatchObject({ maxToolRounds: 2 });
    const b = dir();
    mkdirSync(join(b, '.a3s'));
    writeFileSync(join(b, '.a3s', 'config.json'), JSON.stringify({ parkMode: 'soon' }));
    await expect(Agent.create(b)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'parkMode',
      message: expect.stringContaining(join(b, '.a3s', 'config.json')),
    });
    writeFileSync(join(b, 'a3s.config.json'), '{ "model": ');
    await expect(loadCodeConfig(join(b, 'a3s.config.json'))).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: '(root)',
    });
    await expect(Agent.create(dir())).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION', resource: 'config' });
  });

  it('Agent.create rejects session-only keys in the agent configuration', async () => {
    await expect(Agent.create({ sessionId: 'x' } as never)).rejects.toMatchObject({ field: 'sessionId' });
  });
});

describe('BUILD-02: merge and conflict rules', () => {
  it('the tool-call budget has one spelling: governance.budget is refused, naming budgets.toolCalls', async () => {
    const agent = await Agent.create({ model: model(), persistence: 'memory', budgets: { toolCalls: { limit: 3 } } });
    const budget = { reserve: () => ({ ok: true }) };
    await expect(agent.session(dir(), { governance: { budget } } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'governance.budget',
      details: expect.objectContaining({ renamed_to: 'budgets.toolCalls' }),
    });
  });

  it('options patch the config: the patch wins key by key; denials and hooks add up; maps merge by key', () => {
    const pre = { name: 'p', before: () => undefined };
    const merged = mergeLayers(
      normalizeLayer(
        {
          maxToolRounds: 2,
          toolBudget: 4,
          permissions: { deny: ['Bash(rm:*)'], allow: ['read'], defaultDecision: 'ask' },
          hooks: { pre: [{ command: 'true' }] },
          mcpServers: { a: { command: 'a' }, b: { command: 'b' } },
          skillDirs: ['s1'],
          providers: { openai: { baseUrl: 'http://a', headers: { x: '1' } } },
        },
        'a',
      ),
      normalizeLayer(
        {
          maxToolRounds: 5,
          permissions: { deny: ['write_note'], defaultDecision: 'allow' },
          hooks: { pre: [pre] },
          mcpServers: { b: { url: 'http://b' } },
          skillDirs: ['s2', 's1'],
          providers: { openai: { baseUrl: 'http://b' } },
        },
        'b',
      ),
    );
    expect(merged).toMatchObject({ maxToolRounds: 5, toolBudget: 4 });
    expect(merged.permissions).toEqual({
      deny: ['Bash(rm:*)', 'write_note'],
      allow: ['read'],
      defaultDecision: 'allow',
    });
    expect(merged.hooks?.pre).toEqual([{ command: 'true' }, pre]);
    expect(merged.mcpServers).toEqual({ a: { command: 'a' }, b: { url: 'http://b' } });
    expect(merged.skillDirs).toEqual(['s1', 's2']);
    expect(merged.providers).toEqual({ openai: { baseUrl: 'http://b', headers: { x: '1' } } });
  });

  it('BUILD-03: the session reads one ResolvedSessionConfig (defaults filled in, folders absolute)', async () => {
    const d = dir();
    const agent = await Agent.create({
      model: model(),
      persistence: 'memory',
      maxToolRounds: 3,
      skillDirs: ['skills'],
      budgets: { toolCalls: { limit: 1 } },
    });
    const s = await agent.session(d, { toolBudget: 9, sessionStore: 'memory' });
    expect(s.config).toMatchObject({
      dir: d,
      recipe: { max_tool_rounds: 3, tool_budget: 9 },
      questionCap: 8,
      steerCapacity: 32,
      parkMode: 'wait',
      persistence: 'memory',
      skillDirs: [join(d, 'skills')],
      toolCallBudget: { limit: 1 },
    });
    expect(s.config.sessionStore).toBe(agent.memorySessionStore);
    expect(Object.isFrozen(s.config)).toBe(true);
    await s.close();
  });

  it('budgets.toolCalls gives each run a fresh tool-call budget', async () => {
    const calls = [
      { id: 'a', name: 'echo', args: { text: '1' } },
      { id: 'b', name: 'echo', args: { text: '2' } },
    ];
    const m = new ScriptedLlmClient([{ tool_calls: calls }, { text: 'one' }, { tool_calls: calls }, { text: 'two' }]);
    const test = createTestToolPack();
    const agent = await Agent.create({
      model: m,
      tools: [test.pack],
      permissions: { defaultDecision: 'allow' },
      persistence: 'memory',
      budgets: { toolCalls: { limit: 1 } },
    });
    const s = await agent.session(dir());
    await s.send('first');
    await s.send('second');
    expect(test.state.executions).toHaveLength(2);
    await s.close();
  });
});

describe('model selection through the injected resolver', () => {
  const secret = 'sk-very-secret-value-123';
  it('asks the resolver with the model from A3S_MODEL and the key from the configured variable; the key never appears in config', async () => {
    const { resolver, selections } = fakeModelResolver();
    const agent = await Agent.create({
      persistence: 'memory',
      modelResolver: resolver,
      providers: { openai: { apiKeyEnv: 'MY_OPENAI_KEY', baseUrl: 'http://127.0.0.1:9/v1' } },
      env: { A3S_MODEL: 'openai/gpt-4o-mini', MY_OPENAI_KEY: secret },
    });
    const s = await agent.session(dir());
    expect(selections).toEqual([{ baseUrl: 'http://127.0.0.1:9/v1', apiKey: secret }]);
    expect(s.config.modelConfig).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeySource: 'apiKey',
    });
    expect(s.config.model.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(s.config.modelConfig)).not.toContain(secret);
    await s.close();
  });

  it.each([
    [{ env: {} }, 'model', /A3S_MODEL/],
    [{ model: 'openai/gpt-4o', env: {} }, 'OPENAI_API_KEY', /is not set/],
    [
      { model: 'openai/gpt-4o', providers: { openai: { apiKeyEnv: 'K' } }, env: {} },
      'providers.openai.apiKeyEnv',
      /K, which is not set/,
    ],
  ])('%j → SESSION_CONFIGURATION naming %s', async (config, field, message) => {
    const agent = await Agent.create({
      persistence: 'memory',
      modelResolver: fakeModelResolver().resolver,
      ...config,
    } as never);
    const e = await agent.session(dir()).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field });
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain(secret);
  });

  it('a provider/model string without a resolver is SESSION_CONFIGURATION naming model and modelResolver', async () => {
    const agent = await Agent.create({ persistence: 'memory', model: 'openai/gpt-4o', env: { OPENAI_API_KEY: 'k' } });
    const e = await agent.session(dir()).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field: 'model' });
    expect((e as Error).message).toMatch(/modelResolver/);
  });

  it("a later layer's resolver replaces the agent's", async () => {
    const agentLevel = fakeModelResolver();
    const sessionLevel = fakeModelResolver();
    const agent = await Agent.create({
      persistence: 'memory',
      model: 'ollama/qwen3',
      modelResolver: agentLevel.resolver,
    });
    const s = await agent.session(dir(), { modelResolver: sessionLevel.resolver });
    expect([agentLevel.selections.length, sessionLevel.selections.length]).toEqual([0, 1]);
    await s.close();
  });

  it('rejects a modelResolver that is not one', async () => {
    await expect(Agent.create({ modelResolver: { createClient: () => undefined } as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'modelResolver',
    });
  });

  it('rejects a confirmation manager without confirm() before a run would call it', async () => {
    for (const confirmation of [{}, { confirm: true }])
      await expect(Agent.create({ model: model(), confirmation } as never)).rejects.toMatchObject({
        code: 'SESSION_CONFIGURATION',
        field: 'confirmation',
        message: expect.stringMatching(/confirm\(request, signal\)/),
      });
  });
});

describe('BUILD-09..13: sessionSync', () => {
  it('works when every resource is ready: an LlmClient, memory persistence, a memory or open store', async () => {
    const store = new MemorySessionStore();
    const agent = await Agent.create({ model: model(), persistence: 'memory', sessionStore: store });
    const s = agent.sessionSync(dir(), {
      history: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    });
    expect(s.store.log.length).toBe(2);
    expect(await s.send('next')).toMatchObject({ status: 'completed', text: 'ok' });
    await s.save();
    expect(await store.listSessions()).toHaveLength(1);
    await s.close();
  });

  it.each([
    [{ model: model() }, {}, 'persistence'],
    [{ model: 'ollama/qwen3', persistence: 'memory', modelResolver: fakeModelResolver().resolver }, {}, 'model'],
    [
      { persistence: 'memory', env: { A3S_MODEL: 'ollama/qwen3' }, modelResolver: fakeModelResolver().resolver },
      {},
      'model',
    ],
    [{ model: model(), persistence: 'memory' }, { sessionStore: 'file' }, 'sessionStore'],
    [{ model: model(), persistence: 'memory', mcpServers: { github: { command: 'gh-mcp' } } }, {}, 'mcpServers.github'],
  ])(
    '%j + %j → ASYNC_SESSION_BUILD_REQUIRED naming %s (never an easier backend)',
    async (config, options, resource) => {
      const agent = await Agent.create(config as never);
      let e: unknown;
      try {
        agent.sessionSync(dir(), options as never);
      } catch (x) {
        e = x;
      }
      expect(e).toMatchObject({ code: 'ASYNC_SESSION_BUILD_REQUIRED', resource });
      expect((e as Error).message).toContain(resource);
    },
  );

  it('still rejects a bad option with SESSION_CONFIGURATION before anything else', async () => {
    const agent = await Agent.create({ model: model() });
    expect(() => agent.sessionSync(dir(), { questionCap: -1 })).toThrow(
      expect.objectContaining({ code: 'SESSION_CONFIGURATION', field: 'questionCap' }),
    );
  });
});

describe('BUILD-07: initialisation failures name the resource', () => {
  it('a session store folder that cannot be created is SESSION_INITIALIZATION naming sessionStore', async () => {
    const d = dir();
    writeFileSync(join(d, '.a3s'), 'a file where a folder should be');
    const agent = await Agent.create({ model: model(), persistence: 'memory', sessionStore: 'file' });
    await expect(agent.session(d)).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION', resource: 'sessionStore' });
  });
});
