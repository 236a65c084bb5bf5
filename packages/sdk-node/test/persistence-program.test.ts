// The SDK end to end, part 2 (ARCHITECTURE §7, §9): configuration files in the session folder and
// Agent.create(path), save + resumeSession, streamResume, program, web tools and the tool surface
// listed without a model — on temporary git repositories with the real kernel and tools.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type ConfirmationManager, type ConfirmationRequest, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const open: Session[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const track = (s: Session): Session => {
  open.push(s);
  return s;
};

describe('configuration', () => {
  it("the session folder's a3s.config.json is merged under the agent's configuration and the options", async () => {
    const dir = tempRepo();
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ permissions: { deny: ['bash'] }, parkMode: 'return', questionCap: 3 }),
    );
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), questionCap: 5 });
    const s = track(await agent.session(dir));
    expect(s.toolNames()).not.toContain('bash'); // the file's deny hides it
    expect(s.core.config).toMatchObject({ parkMode: 'return', questionCap: 5 }); // the agent's key wins over the file's
    const patched = track(await agent.session(dir, { parkMode: 'wait', permissions: { deny: ['git'] } }));
    expect(patched.core.config.parkMode).toBe('wait');
    expect(patched.toolNames()).not.toContain('bash'); // denials add up
    expect(patched.toolNames()).not.toContain('git');
    const ignoring = track(
      await (await Agent.create({ model: new ScriptedLlmClient([]), workspaceConfig: false })).session(dir),
    );
    expect(ignoring.toolNames()).toContain('bash');
  });

  it('Agent.create(path): the file is the configuration; its model and providers resolve, errors name the key path', async () => {
    const dir = tempRepo();
    const file = join(dir, 'a3s.config.json');
    writeFileSync(
      file,
      JSON.stringify({ model: 'openai/gpt-4o', providers: { openai: { apiKeyEnv: 'A3S_TEST_KEY_THAT_IS_NOT_SET' } } }),
    );
    await expect(Agent.create(file)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringContaining('providers.openai.apiKeyEnv'),
    });
    writeFileSync(
      file,
      JSON.stringify({ model: 'anthropic/claude-x', providers: { anthropic: { apiKeyEnv: 'A3S_SDK_TEST_KEY' } } }),
    );
    process.env.A3S_SDK_TEST_KEY = 'k-123456';
    try {
      const fromFolder = await Agent.create(dir);
      expect(fromFolder.model?.provider).toBe('anthropic');
    } finally {
      delete process.env.A3S_SDK_TEST_KEY;
    }
    writeFileSync(file, JSON.stringify({ mcpServers: { fs: { command: 'node', args: ['x', 7] } } }));
    await expect(Agent.create(file)).rejects.toMatchObject({
      code: 'MCP_CONFIG',
      field: 'mcpServers.fs.args[1]',
      message: expect.stringContaining(file),
    });
    await expect(Agent.create({ mcpServers: { bad__name: { command: 'x' } } })).rejects.toMatchObject({
      code: 'MCP_CONFIG',
      field: 'mcpServers.bad__name',
    });
    await expect(Agent.create(join(dir, 'src'))).rejects.toMatchObject({ code: 'SESSION_INITIALIZATION' });
  });
});

describe('persistence', () => {
  it('save writes the file session store; resumeSession restores the conversation; SESSION_NOT_FOUND otherwise', async () => {
    const dir = tempRepo();
    const first = await (await Agent.create({ model: new ScriptedLlmClient([{ text: 'Hello, Ada.' }]) })).session(dir, {
      sessionId: 'saved-1',
    });
    await first.send('My name is Ada.');
    const snapshot = await first.save();
    await first.close();
    expect(snapshot).toMatchObject({ session_id: 'saved-1', runs: [expect.objectContaining({ status: 'completed' })] });
    const file = join(dir, '.a3s', 'sessions', 'saved-1.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ session_id: 'saved-1' });

    const model = new ScriptedLlmClient([{ text: 'You are Ada.' }]);
    const agent = await Agent.create({ model });
    const resumed = track(await agent.resumeSession('saved-1', { dir }));
    expect(resumed.sessionId).toBe('saved-1');
    expect((await resumed.send('What is my name?')).text).toBe('You are Ada.');
    const sent = JSON.stringify(model.requests[0]?.messages);
    expect(sent).toContain('My name is Ada.');
    expect(sent).toContain('Hello, Ada.');
    await expect(agent.resumeSession('never-saved', { dir })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    // A session sent to but never saved: the error says how it opens again (from its fact log).
    const unsaved = await agent.session(dir, { sessionId: 'unsaved-1' });
    await unsaved.send('Hi.').catch(() => undefined);
    await unsaved.close();
    const e = (await agent.resumeSession('unsaved-1', { dir }).catch((x: unknown) => x)) as Error;
    expect(e).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(e.message).toContain('agent.session(dir, { sessionId: "unsaved-1" }) reopens it from the log');
  });

  it('streamResume streams a parked run to its end', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([
        { question: { question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] } },
        { text: 'Picked b.' },
      ]),
    });
    const s = track(await agent.session(dir, { parkMode: 'return' }));
    const parked = await s.send('ask me');
    await s.answerQuestion((parked.parked as { questionId: string }).questionId, 'b');
    const stream = s.streamResume();
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    expect(types[0]).toBe('agent_start');
    expect(types.at(-1)).toBe('agent_end');
    expect(await stream.result).toMatchObject({ status: 'completed', text: 'Picked b.', runId: parked.runId });
  });
});

/** Records every confirmation request and refuses it. */
function refusing(): ConfirmationManager & { requests: ConfirmationRequest[] } {
  const requests: ConfirmationRequest[] = [];
  return {
    requests,
    confirm: async (r) => {
      requests.push(r);
      return { approved: false, reason: 'no' };
    },
  };
}

describe('program', () => {
  it('runs inline and file scripts as the host: ctx calls are host_nested (no confirmation), the return value is in metadataJson', async () => {
    const dir = tempRepo();
    const confirmation = refusing();
    const s = track(
      await (await Agent.create({ model: new ScriptedLlmClient([]) })).session(dir, {
        confirmation,
        permissions: { ask: ['bash'] },
      }),
    );
    const source = `async function run(ctx, inputs) {
      const text = await ctx.tool('read', { file_path: inputs.file });
      const out = await ctx.tool('bash', { command: 'echo from-bash' });
      ctx.log('read ' + inputs.file);
      return { readOk: text.ok, bash: out.output.trim(), files: await ctx.glob('**/*.js') };
    }`;
    const r = await s.program({
      source,
      inputs: { file: 'README.md' },
      allowedTools: ['read', 'bash', 'glob'],
      limits: { timeoutMs: 20_000, maxToolCalls: 5 },
    });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('read README.md');
    const meta = JSON.parse(r.metadataJson!) as { result: unknown; program: { tool_calls: number } };
    expect(meta.result).toEqual({
      readOk: true,
      bash: 'from-bash',
      files: expect.arrayContaining(['src/range.js', 'test/range.test.js']),
    });
    expect(meta.program.tool_calls).toBe(3);
    expect(confirmation.requests).toEqual([]);

    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'double.js'), 'async function run(ctx, inputs) { return inputs.n * 2; }\n');
    const fromFile = await s.program({ path: 'scripts/double.js', inputs: { n: 21 } });
    expect(JSON.parse(fromFile.metadataJson!).result).toBe(42);
    const refused = await s.program({
      source: 'async function run(ctx) { return ctx.tool("write", { file_path: "x.txt", content: "x" }); }',
      allowedTools: ['read'],
    });
    expect(existsSync(join(dir, 'x.txt'))).toBe(false);
    expect(refused.output).toMatch(/write/);
    // A limit out of range is the host's mistake, named as the host wrote it (not args.limits.timeout_ms).
    await expect(s.program({ source: 'x', limits: { timeoutMs: 0 } })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'limits.timeoutMs',
    });
    const bad = await s.program({ source: 'x' });
    expect(bad).toMatchObject({ exitCode: 1, errorKind: 'execution' });
  });
});

describe('surface', () => {
  it('SURF-04: a session has web_fetch and web_search by default; web: false (agent or session) removes them', async () => {
    const dir = tempRepo();
    const byDefault = track(await (await Agent.create({ model: new ScriptedLlmClient([]) })).session(dir));
    expect(byDefault.toolNames()).toEqual(expect.arrayContaining(['web_fetch', 'web_search']));
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), web: false });
    const off = track(await agent.session(tempRepo()));
    expect(off.toolNames().filter((n) => n.startsWith('web_'))).toEqual([]);
    const onAgain = track(await agent.session(tempRepo(), { web: { search: false } }));
    expect(onAgain.toolNames().filter((n) => n.startsWith('web_'))).toEqual(['web_fetch']);
    const offInSession = track(
      await (await Agent.create({ model: new ScriptedLlmClient([]) })).session(tempRepo(), { web: false }),
    );
    expect(offInSession.toolNames()).not.toContain('web_fetch');
    expect((await agent.describeTools(tempRepo())).map((t) => t.name)).not.toContain('web_search');
  });

  it('describeTools lists the surface without a model', async () => {
    const agent = await Agent.create({ env: {} });
    expect(agent.model).toBeUndefined();
    const fresh = tempRepo();
    const tools = await agent.describeTools(fresh, { governance: { mode: 'plan' } });
    expect(tools.map((t) => t.name)).toEqual([
      'batch',
      'program',
      'generate_object',
      'read',
      'grep',
      'glob',
      'ls',
      'web_fetch',
      'web_search',
      'ast_grep',
      'lsp',
      'task',
      'parallel_task',
      'task_result',
      'search_skills',
      'Skill',
      'recall',
    ]);
    expect(tools.find((t) => t.name === 'grep')).toMatchObject({
      tier: 'read',
      capabilities: { readOnly: true, paginated: true },
      requires: ['search'],
    });
    expect(existsSync(join(fresh, '.a3s'))).toBe(false); // no log, no session store
  });
});
