// The `vibe` key of a config file: validated (tiers, models, maxWorkers) with the path and the
// file's line and column named, relative `scripted:` tier models anchored at the file's folder,
// the shipped JSON Schema agreeing, and layers merging tier by tier.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FILE } from './config-json-schema.js';
import { jsonPathPosition } from './json-locate.js';
import { loadCodeConfig, parseCodeConfig } from './load-config.js';
import { mergeLayers, mergeVibe } from './merge-config.js';

const fileWith = (text: string): string => {
  const d = mkdtempSync(join(tmpdir(), 'a3s-vibe-config-'));
  writeFileSync(join(d, 'a3s.config.json'), text);
  return d;
};
const rejection = async (p: Promise<unknown>): Promise<{ code?: string; message: string }> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as { code?: string; message: string },
  );

describe('vibe in a config file', () => {
  it('BUILD-08: accepts the serve shape; relative scripted tier models resolve against the file folder', async () => {
    for (const vibe of [true, false, {}, { enabled: false, tiers: { good: 'anthropic/claude' }, maxWorkers: 32 }])
      expect(parseCodeConfig({ vibe })).toEqual({ vibe });
    const d = fileWith(
      JSON.stringify({ vibe: { tiers: { fast: 'scripted:scripts/fast.json', good: 'openai/gpt-4o' }, maxWorkers: 2 } }),
    );
    expect(await loadCodeConfig(d)).toEqual({
      vibe: { tiers: { fast: `scripted:${join(d, 'scripts', 'fast.json')}`, good: 'openai/gpt-4o' }, maxWorkers: 2 },
    });
  });

  it.each([
    [
      'an unknown tier',
      '{\n  "vibe": {\n    "tiers": { "slow": "openai/gpt-4o" }\n  }\n}\n',
      'vibe.tiers.slow: is not a known key; allowed tiers: fast, good',
      '3:16',
    ],
    [
      'a model without provider/',
      '{\n  "vibe": { "tiers": {\n    "fast": "gpt-4o-mini" } }\n}\n',
      `vibe.tiers.fast: expected 'provider/model' with provider one of openai`,
      '3:13',
    ],
    [
      'an unknown provider',
      '{ "model": "openai/gpt-4o",\n  "vibe": { "tiers": { "good": "nosuch/x" } } }',
      'vibe.tiers.good: unknown provider "nosuch"; allowed: openai',
      '2:32',
    ],
    ['maxWorkers 0', '{"vibe": {"maxWorkers": 0}}', 'vibe.maxWorkers: must be an integer from 1 to 32', '1:25'],
    ['maxWorkers 33', '{"vibe": {"maxWorkers": 33}}', 'vibe.maxWorkers: must be an integer from 1 to 32', '1:25'],
    [
      'an unknown vibe key',
      '{"vibe": {"colour": "red"}}',
      'vibe.colour: is not a known key; allowed keys: enabled',
      '1:11',
    ],
    [
      'a string',
      '{"vibe": "on"}',
      'vibe: must be true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? }',
      '1:10',
    ],
  ])('BUILD-08: %s is a config error naming the path, the file, line and column', async (_name, text, message, at) => {
    const d = fileWith(text);
    const e = await rejection(loadCodeConfig(d));
    expect(e.code).toBe('SESSION_CONFIGURATION');
    expect(e.message).toContain(message);
    expect(e.message).toContain(`(in ${join(d, 'a3s.config.json')}:${at})`);
  });

  it('the shipped JSON Schema accepts and rejects the same vibe settings', () => {
    const shipped = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'dist', CONFIG_SCHEMA_FILE), 'utf8'),
    ) as Record<string, unknown>;
    const validate = new Ajv2020({ strict: false }).compile(shipped);
    const good = [true, { tiers: { fast: 'scripted:f.json', good: 'openai/gpt-4o' }, maxWorkers: 8, enabled: false }];
    const bad = [
      'on',
      { tiers: { slow: 'openai/x' } },
      { tiers: { fast: 'gpt-4o' } },
      { tiers: { fast: 'nosuch/x' } },
      { maxWorkers: 0 },
      { maxWorkers: 1.5 },
      { colour: 'red' },
    ];
    for (const vibe of good) {
      expect(() => parseCodeConfig({ vibe })).not.toThrow();
      expect(validate({ vibe }), JSON.stringify(vibe)).toBe(true);
    }
    for (const vibe of bad) {
      expect(() => parseCodeConfig({ vibe }), JSON.stringify(vibe)).toThrow(/session configuration: vibe/);
      expect(validate({ vibe }), JSON.stringify(vibe)).toBe(false);
    }
  });

  it('locates values and keys by path (the last of a repeated key, array items, nested objects)', () => {
    const text = '{\n  "a": [1, {"b": "x"}],\n  "c": {"d": true, "d": null}\n}';
    expect(jsonPathPosition(text, ['a', 1, 'b'])).toEqual({ line: 2, column: 18 });
    expect(jsonPathPosition(text, ['c', 'd'])).toEqual({ line: 3, column: 25 });
    expect(jsonPathPosition(text, ['c', 'd'], true)).toEqual({ line: 3, column: 20 });
    expect(jsonPathPosition(text, [])).toEqual({ line: 1, column: 1 });
    expect(jsonPathPosition(text, ['nope'])).toBeUndefined();
    expect(jsonPathPosition('{"s": "a\\"}b", "t": 1}', ['t'])).toEqual({ line: 1, column: 21 });
  });
});

describe('vibe across layers', () => {
  it('BUILD-02: a later layer wins key by key and tier by tier; false turns it off', () => {
    const file = { enabled: false, tiers: { fast: 'openai/gpt-4o-mini', good: 'anthropic/claude' }, maxWorkers: 4 };
    expect(mergeVibe(file, { tiers: { fast: 'groq/llama' } })).toEqual({
      enabled: false,
      tiers: { fast: 'groq/llama', good: 'anthropic/claude' },
      maxWorkers: 4,
    });
    expect(mergeVibe(file, true)).toEqual({ ...file, enabled: true });
    expect(mergeVibe(file, false)).toBe(false);
    expect(mergeVibe(file, undefined)).toBe(file);
    expect(mergeVibe(undefined, { maxWorkers: 2 })).toEqual({ maxWorkers: 2 });
    expect(mergeVibe(false, { tiers: { good: 'openai/o3' } })).toEqual({
      enabled: false,
      tiers: { good: 'openai/o3' },
    });
    expect(mergeVibe(true, { maxWorkers: 3 })).toEqual({ enabled: true, maxWorkers: 3 });
    // Through mergeLayers (file, then agent, then session options).
    const merged = [{ vibe: file }, { vibe: { maxWorkers: 16 } }, { vibe: { enabled: true, tiers: { good: 'x/y' } } }]
      .map((l) => l as Parameters<typeof mergeLayers>[0])
      .reduce((a, b) => mergeLayers(a, b));
    expect(merged.vibe).toEqual({ enabled: true, tiers: { fast: 'openai/gpt-4o-mini', good: 'x/y' }, maxWorkers: 16 });
  });
});
