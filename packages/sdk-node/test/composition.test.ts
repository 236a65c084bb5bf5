// What the SDK composes around core: the providers package resolves `provider/model` names by
// default (the agent's model and sub-agents naming their own), a host's own resolver replaces it,
// and the SDK's production code uses only core's product entry (the scripted model included).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ModelResolver } from '@a3s-code/core';
import { OpenAICompatibleClient } from '@a3s-code/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the SDK composes @a3s-code/providers', () => {
  it("the SDK's production sources never import @a3s-code/core/testing", () => {
    const src = join(import.meta.dirname, '..', 'src');
    const offenders = sources(src).filter(
      (f) => !f.endsWith('.test.ts') && /['"]@a3s-code\/core\/testing['"]/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it("resolves the agent's 'provider/model' through the providers package by default", async () => {
    const agent = await Agent.create({
      model: 'openai/gpt-4o',
      env: { OPENAI_API_KEY: 'sk-test' },
      workspaceConfig: false,
    });
    expect(agent.model).toBeInstanceOf(OpenAICompatibleClient);
    expect(agent.model).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
  });

  it("resolves a sub-agent's own 'provider/model' through the providers package by default", async () => {
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          { id: 't', name: 'task', args: { agent: 'reviewer', description: 'review', prompt: 'Review it.' } },
        ],
      },
      { text: 'parent done' },
    ]);
    const agent = await Agent.create({
      model,
      env: {},
      persistence: 'memory',
      workspaceConfig: false,
      agents: [{ name: 'reviewer', description: 'Reviews changes', tier: 'read', model: 'anthropic/claude-haiku' }],
    });
    session = await agent.session(tempRepo(), { governance: { yolo: true } });
    await session.send('get a review');
    const result = session.core.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    // The providers package was asked: it names the key its Anthropic preset needs.
    expect(result).toMatchObject({ ok: false, output: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it("a host's modelResolver replaces the default, for the agent's model and its sub-agents'", async () => {
    const asked: (string | undefined)[] = [];
    const resolver: ModelResolver = {
      resolveConfig: () => undefined,
      createClient: (selection) => {
        asked.push(selection.model);
        return new ScriptedLlmClient([{ text: 'from my resolver' }], { model: selection.model ?? 'none' });
      },
    };
    const agent = await Agent.create({
      model: 'openai/gpt-4o',
      modelResolver: resolver,
      env: {},
      persistence: 'memory',
      workspaceConfig: false,
    });
    session = await agent.session(tempRepo());
    expect(await session.send('hi')).toMatchObject({ text: 'from my resolver' });
    expect(asked).toEqual(['openai/gpt-4o']);
  });
});
