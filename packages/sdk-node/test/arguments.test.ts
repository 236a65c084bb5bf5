// A hurried host's wrong arguments to Agent.create, agent.session and session.program: each a typed
// SESSION_CONFIGURATION error naming what was wrong and what is allowed, never a TypeError from inside.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { A3sError, Agent, InvalidPromptError } from '../src/index.js';

const configError = (field: string, message: RegExp) =>
  expect.objectContaining({ code: 'SESSION_CONFIGURATION', field, message: expect.stringMatching(message) });
const model = () => new ScriptedLlmClient([{ text: 'done' }]);

describe('Agent.create arguments', () => {
  it('refuses a configuration that is neither an object nor a path', async () => {
    for (const bad of [null, 42, () => ({}), [], '  '])
      await expect(Agent.create(bad as never)).rejects.toEqual(configError('config', /config/));
  });

  it('a model spec given where the config path goes names the mistake and the call meant', async () => {
    for (const spec of ['openai/gpt-4o', 'anthropic/claude-sonnet-4', 'scripted:model.json'])
      await expect(Agent.create(spec)).rejects.toEqual(
        configError(
          'config',
          new RegExp(`looks like a model: pass it as Agent\\.create\\(\\{ model: '${spec.replace('.', '\\.')}' \\}\\)`),
        ),
      );
    // A path that names no file and is not a model spec keeps the config file's own error.
    await expect(Agent.create('configs/missing.json')).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION' });
  });

  it('agent.resumeSession without a session id (or with a non-string one) names sessionId, not a TypeError', async () => {
    const agent = await Agent.create({ model: model() });
    for (const bad of [undefined, '', 42, null])
      await expect(agent.resumeSession(bad as never)).rejects.toEqual(
        configError('sessionId', /agent\.resumeSession takes the id of a saved session as a non-empty string/),
      );
    await agent.close();
  });

  it('refuses `new Agent(config)` from JavaScript with the way to make one, not a TypeError on first use', async () => {
    const Ctor = Agent as unknown as new (config: object) => Agent;
    expect(() => new Ctor({ model: model() })).toThrow(
      configError('Agent', /await Agent\.create\(config\).*`new Agent\(\.\.\.\)` is not supported/),
    );
    const made = await Agent.create({ model: model() });
    expect(made).toBeInstanceOf(Agent);
    await made.close();
  });

  it('refuses wrong SDK-only keys instead of ignoring them', async () => {
    await expect(Agent.create({ model: model(), cwd: 5 } as never)).rejects.toEqual(configError('cwd', /folder path/));
    await expect(Agent.create({ model: model(), workspaceTools: 'no' } as never)).rejects.toEqual(
      configError('workspaceTools', /true or false/),
    );
    await expect(Agent.create({ model: model(), resourcePacks: true } as never)).rejects.toEqual(
      configError('resourcePacks', /ast, lsp, eval, debug/),
    );
    await expect(Agent.create({ model: model(), resourcePacks: { evl: false } } as never)).rejects.toEqual(
      configError('resourcePacks.evl', /allowed: ast, lsp, eval, debug/),
    );
  });

  it("an unknown key lists the SDK's own keys among the allowed ones and suggests the one meant", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-args-'));
    const refusal = async (p: Promise<unknown>) => {
      const e = (await p.catch((x: unknown) => x)) as { code?: string; field?: string; message: string };
      expect(e.code).toBe('SESSION_CONFIGURATION');
      return e;
    };
    for (const [typo, meant] of [
      ['workspaceTool', 'workspaceTools'],
      ['resourcePack', 'resourcePacks'],
      ['onConfrm', 'onConfirm'],
      ['modle', 'model'],
    ] as const) {
      const e = await refusal(Agent.create({ [typo]: true } as never));
      expect(e.field).toBe(typo);
      expect(e.message).toMatch(new RegExp(`allowed keys: .*\\b${meant}\\b.*; did you mean '${meant}'\\?$`));
    }
    const agent = await Agent.create({ model: model(), workspaceConfig: false });
    for (const [typo, meant] of [
      ['sesionId', 'sessionId'],
      ['session_id', 'sessionId'],
      ['onConfrm', 'onConfirm'],
      ['mcpServer', 'mcpServers'],
    ] as const) {
      const e = await refusal(agent.session(dir, { [typo]: 1 } as never));
      expect(e.message).toMatch(new RegExp(`allowed keys: .*\\bonConfirm\\b.*; did you mean '${meant}'\\?$`));
    }
    const e = await refusal(agent.resumeSession('s', { dri: dir } as never));
    expect(e.message).toMatch(/allowed keys: .*\bdir\b.*; did you mean 'dir'\?$/);
    await expect(Agent.create({ model: model(), resourcePacks: { evl: false } } as never)).rejects.toThrow(
      /did you mean 'eval'\?$/,
    );
  });

  it('refuses a confirmation that cannot confirm and a bad vibe setting at create, not at the first session or run', async () => {
    for (const confirmation of [5, {}, { confirm: 'yes' }])
      await expect(Agent.create({ model: model(), confirmation } as never)).rejects.toEqual(
        configError('confirmation', /confirm\(request, signal\)/),
      );
    await expect(Agent.create({ model: model(), vibe: 5 } as never)).rejects.toEqual(
      configError('vibe', /true, false/),
    );
    await expect(Agent.create({ model: model(), vibe: { enabled: 'y' } } as never)).rejects.toEqual(
      configError('vibe.enabled', /true or false/),
    );
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    const agent = await Agent.create({ model: model() });
    await expect(agent.session(dir, { confirmation: {} } as never)).rejects.toEqual(
      configError('confirmation', /confirm/),
    );
  });

  it('refuses a tool pack without a name and tools, at its own index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    await expect(Agent.create({ model: model(), tools: [{ name: 'x' }] } as never)).rejects.toEqual(
      configError('tools[0]', /ToolPack/),
    );
    const agent = await Agent.create({ model: model() });
    await expect(agent.session(dir, { tools: [{ name: 'x' }] } as never)).rejects.toEqual(
      configError('tools[0]', /ToolPack/),
    );
  });
});

describe('agent.session arguments', () => {
  it('refuses a folder that is not a non-empty string, and an unexpanded ~', async () => {
    const agent = await Agent.create({ model: model() });
    for (const bad of [undefined, null, 5, ''])
      await expect(agent.session(bad as never)).rejects.toEqual(configError('dir', /non-empty path string/));
    await expect(agent.session('~/a3s-no-such-folder')).rejects.toEqual(configError('dir', /not expanded/));
  });

  it('refuses options that are not an object, and session.program without options', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const agent = await Agent.create({ model: model() });
    for (const bad of [null, () => ({}), 'x'])
      await expect(agent.session(dir, bad as never)).rejects.toEqual(configError('options', /options object/));
    const session = await agent.session(dir);
    try {
      await expect(session.program(null as never)).rejects.toEqual(configError('options', /session.program/));
      expect((await session.program(undefined as never)).output).toMatch(/one of source or path/);
      expect(() => session.steer('hi', null as never)).toThrow(
        expect.objectContaining({ code: 'SESSION_CONFIGURATION' }),
      );
      await expect(session.send('hi', null as never)).rejects.toEqual(expect.objectContaining({ field: 'options' }));
      expect((await session.send('hi')).text).toBe('done');
    } finally {
      await session.close();
    }
  });

  it('refuses governance flags of the wrong type or name instead of reading them as unset (plan mode meant, full access given)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    const agent = await Agent.create({ model: model() });
    for (const [governance, field, message] of [
      [{ yolo: 'true' }, 'governance.yolo', /must be true or false/],
      [{ mode: 'PLAN' }, 'governance.mode', /must be 'default' or 'plan'/],
      [{ plan: true }, 'governance.plan', /is not a known key; allowed keys: mode, readOnly, yolo/],
    ] as const)
      await expect(agent.session(dir, { governance } as never)).rejects.toEqual(configError(field, message));
    const plan = await agent.session(dir, { governance: { mode: 'plan' } });
    expect(plan.toolNames()).not.toContain('write');
    await plan.close();
  });
});

describe('prompts', () => {
  it('an empty, blank or non-string prompt is an InvalidPromptError (INVALID_PROMPT, field prompt) saying what was given, before anything runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir);
    try {
      for (const [prompt, got] of [
        ['', 'an empty string'],
        ['  \n', 'only whitespace'],
        [42, 'number'],
        [undefined, 'undefined'],
        [null, 'null'],
      ] as const)
        await expect(session.send(prompt as never)).rejects.toEqual(
          expect.objectContaining({
            name: 'InvalidPromptError',
            code: 'INVALID_PROMPT',
            field: 'prompt',
            got,
            details: { field: 'prompt', got },
            message: `the prompt must be a non-empty string (the task for the model), got ${got}`,
          }),
        );
      const refused = await session.send('').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InvalidPromptError);
      expect(A3sError.isInstance(refused)).toBe(true);
      expect((await session.send('hi')).text).toBe('done');
    } finally {
      await session.close();
    }
  });

  it('stream throws a bad prompt at once and leaves the session free for the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir);
    try {
      for (const prompt of [42, '', '  ', null])
        expect(() => session.stream(prompt as never)).toThrow(
          expect.objectContaining({ code: 'INVALID_PROMPT', message: expect.stringMatching(/^the prompt must be/) }),
        );
      expect(session.activeRunId).toBeNull();
      expect((await session.send('hi')).text).toBe('done');
      expect(session.state.view.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe('session method arguments', () => {
  it('host-direct and memory helpers refuse options that are not an object by name, not with a TypeError', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir, { memory: 'file' });
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ['session.readFile', () => session.readFile('a.txt', null as never)],
        ['session.editFile', () => session.editFile('a.txt', 'a', 'b', null as never)],
        ['session.glob', () => session.glob('*', null as never)],
        ['session.grep', () => session.grep('a', null as never)],
        ['session.bash', () => session.bash('true', 5 as never)],
        ['session.git', () => session.git('status', 'x' as never)],
        ['session.remember', () => session.remember('note', null as never)],
        ['session.recall', () => session.recall('note', null as never)],
        ['session.addMcpServer', () => session.addMcpServer('s', { command: 'node' }, null as never)],
      ];
      for (const [call, run] of calls)
        await expect(run(), call).rejects.toEqual(configError('options', new RegExp(call.replace('.', '\\.'))));
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
      expect(await session.readFile('a.txt')).toBe('a\n');
    } finally {
      await session.close();
    }
  });

  it('a misspelt or mistyped option of a host-direct, memory or program helper is refused by name, never ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    writeFileSync(join(dir, 'a.txt'), 'a\nb\n');
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir, { memory: 'file' });
    try {
      const calls: [string, RegExp, () => Promise<unknown>][] = [
        [
          'ofset',
          /not an option of session\.readFile; did you mean 'offset'\? \(allowed: offset, limit\)/,
          () => session.readFile('a.txt', { ofset: 1 } as never),
        ],
        [
          'limit',
          /must be an integer of at least 1, got '2'/,
          () => session.readFile('a.txt', { limit: '2' } as never),
        ],
        ['offset', /must be an integer of at least 0, got number -1/, () => session.readFile('a.txt', { offset: -1 })],
        ['limt', /session\.glob; did you mean 'limit'/, () => session.glob('*', { limt: 1 } as never)],
        ['timeout', /session\.bash; did you mean 'timeoutMs'/, () => session.bash('true', { timeout: 5 } as never)],
        [
          'ignorecase',
          /session\.grep; did you mean 'ignoreCase'/,
          () => session.grep('a', { ignorecase: true } as never),
        ],
        [
          'replace_all',
          /session\.editFile; did you mean 'replaceAll'/,
          () => session.editFile('a.txt', 'a', 'c', { replace_all: true } as never),
        ],
        ['tag', /session\.remember; did you mean 'tags'/, () => session.remember('note', { tag: ['x'] } as never)],
        ['limits', /session\.recall; did you mean 'limit'/, () => session.recall('note', { limits: 1 } as never)],
        [
          'allowedTools',
          /array of tool names/,
          () => session.program({ source: 'async function run() {}', allowedTools: 'glob' } as never),
        ],
        [
          'allowed_tools',
          /session\.program; did you mean 'allowedTools'/,
          () => session.program({ source: 'async function run() {}', allowed_tools: [] } as never),
        ],
        [
          'limits.timeout',
          /not a limit of session\.program; did you mean 'timeoutMs'\? \(allowed: timeoutMs, maxToolCalls, maxOutputBytes, memoryLimitBytes\)/,
          () => session.program({ source: 'async function run() {}', limits: { timeout: 5 } } as never),
        ],
        [
          'limits.timeoutMs',
          /must be an integer from 1 to 600000, got number -5/,
          () => session.program({ source: 'async function run() {}', limits: { timeoutMs: -5 } }),
        ],
        [
          'limits.maxToolCalls',
          /must be an integer from 0 to 1000, got '3'/,
          () => session.program({ source: 'async function run() {}', limits: { maxToolCalls: '3' } } as never),
        ],
        [
          'limits',
          /must be an object \{ timeoutMs, maxToolCalls, maxOutputBytes, memoryLimitBytes \}/,
          () => session.program({ source: 'async function run() {}', limits: 5 } as never),
        ],
      ];
      for (const [field, message, run] of calls)
        await expect(run(), field).rejects.toEqual(configError(field, message));
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\nb\n');
      expect(await session.readFile('a.txt', { offset: 1, limit: 1, extra: undefined } as never)).toBe('b\n');
    } finally {
      await session.close();
    }
  });

  it('every promise method of a closed session rejects (so .catch works) instead of throwing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-args-'));
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir);
    await session.close();
    await session.close();
    const closed = expect.objectContaining({ code: 'SESSION_CLOSED', sessionId: session.sessionId });
    for (const run of [
      () => session.send('hi'),
      () => session.resumeRun(),
      () => session.compact(),
      () => session.confirmToolUse('c1', true),
      () => session.answerQuestion('q1', 'yes'),
    ]) {
      let caught: unknown;
      await run().catch((e: unknown) => {
        caught = e;
      });
      expect(caught).toEqual(closed);
    }
    expect(() => session.stream('hi')).toThrow(closed);
  });
});
