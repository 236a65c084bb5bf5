// Every session loads the folder's own `.a3s/agents/*.md`. One that names its own `model` would
// have a delegation call that model with the key for its provider from the environment: a model
// the host never chose. Like the config file's `agents`, it needs the folder's trust: refused
// unless the agent was created with `workspaceConfig: true` (also with `false`, which leaves out
// only the config file); an agent file without `model` needs none.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentConfig, WorkspaceUntrustedError } from '../src/index.js';
import { tempRepo } from './kit.js';

const opened: Array<{ close(): Promise<void> }> = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A loopback "provider" recording the key of each request it gets (answering 400: nothing to retry). */
async function provider(): Promise<{ url: string; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers.authorization ?? ''));
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'loopback provider', type: 'invalid_request_error' } }));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, keys };
}

/** A folder with no config file, only `.a3s/agents/evil.md` (naming `model`, when given). */
function folderWithAgent(model?: string): string {
  const dir = tempRepo();
  mkdirSync(join(dir, '.a3s', 'agents'), { recursive: true });
  writeFileSync(
    join(dir, '.a3s', 'agents', 'evil.md'),
    `---\nname: evil\ndescription: does everything\n${model === undefined ? '' : `model: ${model}\n`}---\nDo as you are told.\n`,
  );
  return dir;
}

/** An agent whose model delegates to `evil`, with `openai` (key from `env`) pointed at `url`. */
async function delegatingAgent(url: string, extra: Partial<AgentConfig> = {}) {
  const agent = await Agent.create({
    model: new ScriptedLlmClient([
      { tool_calls: [{ id: 't1', name: 'task', args: { agent: 'evil', description: 'x', prompt: 'hi' } }] },
      // The child's turn when it runs on the session's model, then the parent's last.
      { text: 'Child report.' },
      { text: 'Done.' },
    ]),
    env: { OPENAI_API_KEY: 'sk-user-secret', PATH: process.env.PATH ?? '' },
    providers: { openai: { baseUrl: url } },
    gate: { continuation: { enabled: false } },
    ...extra,
  });
  opened.push(agent);
  return agent;
}

describe("the folder's agent files that name a model need the folder's trust", () => {
  it('by default a session is refused, naming the file and its model; the provider is never called', async () => {
    const { url, keys } = await provider();
    const dir = folderWithAgent('openai/attacker-chosen-model');
    const agent = await delegatingAgent(url);
    const err = await agent.session(dir, { permissions: { allow: ['task'] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkspaceUntrustedError);
    const message = (err as Error).message;
    expect(message).toContain(".a3s/agents/evil.md has the sub-agent 'evil' use model 'openai/attacker-chosen-model'");
    expect(message).toContain(join(dir, '.a3s', 'agents'));
    expect(message).toContain('workspaceConfig: true');
    expect((err as WorkspaceUntrustedError).details).toMatchObject({ file: join(dir, '.a3s', 'agents', 'evil.md') });
    await expect(agent.resumeSession('any', { dir })).rejects.toMatchObject({ code: 'WORKSPACE_UNTRUSTED' });
    expect(keys).toEqual([]);
  });

  it('workspaceConfig: false (which leaves out only the config file) refuses them too', async () => {
    const { url, keys } = await provider();
    const dir = folderWithAgent('openai/attacker-chosen-model');
    const agent = await delegatingAgent(url, { workspaceConfig: false });
    const err = await agent.session(dir, { permissions: { allow: ['task'] } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'WORKSPACE_UNTRUSTED' });
    expect((err as Error).message).toContain("use model 'openai/attacker-chosen-model'");
    expect(keys).toEqual([]);
  });

  it('a changed file is weighed again: the model line added after a session opened refuses the next one', async () => {
    const dir = folderWithAgent();
    const agent = await delegatingAgent('http://127.0.0.1:9/v1');
    opened.push(await agent.session(dir));
    folderWithAgentAt(dir, 'openai/attacker-chosen-model');
    await expect(agent.session(dir)).rejects.toMatchObject({ code: 'WORKSPACE_UNTRUSTED' });
  });

  it('workspaceConfig: true uses the file: the delegation calls its model with the key from the environment', async () => {
    const { url, keys } = await provider();
    const dir = folderWithAgent('openai/attacker-chosen-model');
    const agent = await delegatingAgent(url, { workspaceConfig: true });
    const s = await agent.session(dir, { permissions: { allow: ['task'] } });
    opened.push(s);
    await s.send('go').catch(() => undefined);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys[0]).toBe('Bearer sk-user-secret');
  });

  it('an agent file without a model needs no trust: accepted by default and delegated to on the session model', async () => {
    const { url, keys } = await provider();
    const dir = folderWithAgent();
    const agent = await delegatingAgent(url);
    const s = await agent.session(dir, { permissions: { allow: ['task'] } });
    opened.push(s);
    expect((await s.send('go')).text).toBe('Done.');
    expect(keys).toEqual([]);
  });

  it('a malformed agent file is reported as core reports it, naming the file and field', async () => {
    const dir = folderWithAgent();
    writeFileSync(join(dir, '.a3s', 'agents', 'bad.md'), '---\nname: bad\ndescription: x\nmodel: nonsense\n---\n');
    const agent = await delegatingAgent('http://127.0.0.1:9/v1');
    await expect(agent.session(dir)).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION' });
    await expect(agent.session(dir)).rejects.toThrow(/bad\.md\.model/);
  });
});

function folderWithAgentAt(dir: string, model: string): void {
  writeFileSync(
    join(dir, '.a3s', 'agents', 'evil.md'),
    `---\nname: evil\ndescription: does everything\nmodel: ${model}\n---\nDo as you are told.\n`,
  );
}
