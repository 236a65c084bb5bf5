import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../session/agent.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { loadCodeConfig, parseCodeConfig } from './load-config.js';
import { normalizeLayer } from './merge-config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'a3s-spelling-'));
const model = () => new ScriptedLlmClient([{ text: 'ok' }]);
const fileWith = (config: unknown): string => {
  const d = dir();
  writeFileSync(join(d, 'a3s.config.json'), JSON.stringify(config));
  return d;
};

/** Each removed spelling, the field the error names, and the one spelling to use. */
const RENAMED: readonly (readonly [Record<string, unknown>, string, string])[] = [
  [{ max_tool_rounds: 2 }, 'max_tool_rounds', 'maxToolRounds'],
  [{ tool_budget: 3 }, 'tool_budget', 'toolBudget'],
  [{ llmBudget: { maxCalls: 2 } }, 'llmBudget', 'budgets.llm'],
  [{ recipe: { max_tool_rounds: 2 } }, 'recipe.max_tool_rounds', 'maxToolRounds'],
  [{ recipe: { tool_budget: 3 } }, 'recipe.tool_budget', 'toolBudget'],
  [{ recipe: { compact_threshold_chars: 200 } }, 'recipe.compact_threshold_chars', 'compactThresholdChars'],
  [{ recipe: { compact_threshold_tokens: 900 } }, 'recipe.compact_threshold_tokens', 'compactThresholdTokens'],
  [{ hooks: { user_prompt_submit: [{ command: 'true' }] } }, 'hooks.user_prompt_submit', 'hooks.userPromptSubmit'],
  [{ hooks: { pre_compact: [{ command: 'true' }] } }, 'hooks.pre_compact', 'hooks.preCompact'],
  [{ governance: { budget: { limit: 3 } } }, 'governance.budget', 'budgets.toolCalls'],
];

const renamedError = (field: string, use: string) => ({
  code: 'SESSION_CONFIGURATION',
  field,
  details: expect.objectContaining({ field, renamed_to: use }),
  message: expect.stringContaining(`${field}: was renamed: use \`${use}\``),
});

describe('BUILD-08: one spelling per setting; an old spelling is a typed configuration error naming the new one', () => {
  it.each(RENAMED)('Agent.create(%j) → %s renamed to %s', async (config, field, use) => {
    await expect(Agent.create({ model: model(), persistence: 'memory', ...config } as never)).rejects.toMatchObject(
      renamedError(field, use),
    );
  });

  it.each(RENAMED)('session options %j → %s renamed to %s', async (options, field, use) => {
    const agent = await Agent.create({ model: model(), persistence: 'memory' });
    await expect(agent.session(dir(), options as never)).rejects.toMatchObject(renamedError(field, use));
    expect(() => normalizeLayer(options as never, 'session options')).toThrow(expect.objectContaining({ field }));
  });

  it.each(RENAMED)('a3s.config.json %j → %s renamed to %s, naming the file', async (config, field, use) => {
    const d = fileWith(config);
    const e = await loadCodeConfig(d).catch((x: unknown) => x);
    expect(e).toMatchObject(renamedError(field, use));
    expect((e as Error).message).toContain(join(d, 'a3s.config.json'));
    await expect(Agent.create(d)).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION', field });
    expect(() => parseCodeConfig(config, 'x.json')).toThrow(/was renamed/);
  });

  it('a recipe with no old key is refused as removed; a kernel check still cannot be configured', async () => {
    const agent = await Agent.create({ model: model(), persistence: 'memory' });
    await expect(agent.session(dir(), { recipe: {} } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'recipe',
      message: expect.stringMatching(
        /was removed: use `maxToolRounds`, `toolBudget`, `compactThresholdChars`, `compactThresholdTokens`/,
      ),
    });
    await expect(agent.session(dir(), { recipe: { completion_gate: false } } as never)).rejects.toMatchObject({
      field: 'recipe.completion_gate',
      message: expect.stringMatching(/cannot be configured or removed/),
    });
  });
});

/** Each setting in its one spelling, and what the session resolves it to. */
const SETTINGS: readonly (readonly [string, Record<string, unknown>, Record<string, unknown>])[] = [
  ['maxToolRounds', { maxToolRounds: 2 }, { recipe: { max_tool_rounds: 2 } }],
  ['toolBudget', { toolBudget: 3 }, { recipe: { tool_budget: 3 } }],
  ['compactThresholdChars', { compactThresholdChars: 200 }, { recipe: { compact_threshold_chars: 200 } }],
  ['compactThresholdTokens', { compactThresholdTokens: 900 }, { recipe: { compact_threshold_tokens: 900 } }],
  ['budgets.llm', { budgets: { llm: { maxCalls: 2 } } }, { llmBudget: { maxCalls: 2 } }],
  [
    'budgets.toolCalls',
    { budgets: { toolCalls: { limit: 3, softLimit: 2 } } },
    { toolCallBudget: { limit: 3, softLimit: 2 } },
  ],
  [
    'hooks.userPromptSubmit',
    { hooks: { userPromptSubmit: [{ command: 'true' }] } },
    { hooks: { userPromptSubmit: [expect.any(Function)] } },
  ],
  [
    'hooks.preCompact',
    { hooks: { preCompact: [{ command: 'true' }] } },
    { hooks: { preCompact: [expect.any(Function)] } },
  ],
];

describe('each setting works in its one spelling', () => {
  it.each(SETTINGS)('%s through Agent.create', async (_name, config, resolved) => {
    const agent = await Agent.create({ model: model(), persistence: 'memory', ...config });
    const s = await agent.session(dir());
    expect(s.config).toMatchObject(resolved);
    await s.close();
  });

  it.each(SETTINGS)('%s through session options', async (_name, options, resolved) => {
    const agent = await Agent.create({ model: model(), persistence: 'memory' });
    const s = await agent.session(dir(), options);
    expect(s.config).toMatchObject(resolved);
    await s.close();
  });

  it.each(SETTINGS)('%s through a3s.config.json', async (_name, config, resolved) => {
    const agent = await Agent.create(fileWith(config));
    expect(agent.config).toMatchObject(config);
    const s = await agent.session(dir(), { model: model(), persistence: 'memory' });
    expect(s.config).toMatchObject(resolved);
    await s.close();
  });
});
