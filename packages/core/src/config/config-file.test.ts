import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { codeConfigJsonSchema, CONFIG_SCHEMA_FILE } from './config-json-schema.js';
import { jsonSyntaxError } from './json-syntax.js';
import { loadCodeConfig, parseCodeConfig } from './load-config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'a3s-config-file-'));
const fileWith = (text: string): string => {
  const d = dir();
  writeFileSync(join(d, 'a3s.config.json'), text);
  return d;
};
const failure = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a failure');
};
const failureOf = async (p: Promise<unknown>): Promise<{ code?: string; message: string }> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as { code?: string; message: string },
  );

describe('config files', () => {
  it('accepts $schema (an editor hint) and drops it', async () => {
    const config = await loadCodeConfig(
      fileWith(
        JSON.stringify({ $schema: './node_modules/@a3s-code/core/dist/config.schema.json', model: 'openai/gpt-4o' }),
      ),
    );
    expect(config).toEqual({ model: 'openai/gpt-4o' });
  });

  it('BUILD-08: pricing per provider/model is validated', () => {
    expect(parseCodeConfig({ pricing: { 'openai/gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 } } })).toEqual({
      pricing: { 'openai/gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 } },
    });
    expect(failure(() => parseCodeConfig({ pricing: { 'gpt-4o': { inputPerMTok: 1, outputPerMTok: 1 } } }))).toMatch(
      /pricing\.gpt-4o: is not a model id: expected 'provider\/model'/,
    );
    expect(failure(() => parseCodeConfig({ pricing: { 'openai/x': { inputPerMTok: -1, outputPerMTok: 1 } } }))).toMatch(
      /pricing\.openai\/x\.inputPerMTok: must be a number >= 0/,
    );
    expect(
      failure(() => parseCodeConfig({ pricing: { 'openai/x': { inputPerMTok: 1, outputPerMTok: 1, input: 1 } } })),
    ).toMatch(/allowed keys: inputPerMTok, outputPerMTok/);
  });

  it('BUILD-08: model "scripted:<file>" is accepted and resolved against the config file folder', async () => {
    const d = fileWith(JSON.stringify({ model: 'scripted:model.json' }));
    expect(await loadCodeConfig(d)).toEqual({ model: `scripted:${join(d, 'model.json')}` });
    expect(await loadCodeConfig(fileWith(JSON.stringify({ model: 'scripted:/abs/m.json' })))).toEqual({
      model: 'scripted:/abs/m.json',
    });
    expect(failure(() => parseCodeConfig({ model: 'scripted:' }))).toMatch(
      /model: must name the script file: 'scripted:<file\.json>'/,
    );
    expect(failure(() => parseCodeConfig({ model: 'gpt-4o' }))).toMatch(/or 'scripted:<file\.json>'/);
  });

  it('BUILD-08: a JSON syntax error names the file, line and column', async () => {
    const d = fileWith('{\n  "model": "openai/gpt-4o",\n}\n');
    const e = await failureOf(loadCodeConfig(d));
    expect(e.code).toBe('SESSION_CONFIGURATION');
    expect(e.message).toContain(`is not valid JSON (in ${join(d, 'a3s.config.json')}:3:1): trailing comma before '}'`);
    const bom = fileWith('\uFEFF{"model": "openai/gpt-4o"}');
    expect(await loadCodeConfig(bom)).toEqual({ model: 'openai/gpt-4o' });
  });

  it('BUILD-08: an mcpServers entry whose command or url has the wrong form names that key, the file, line and column', async () => {
    const d = fileWith('{\n  "mcpServers": {\n    "x": { "command": 5 }\n  }\n}\n');
    const e = await failureOf(loadCodeConfig(d));
    expect(e.code).toBe('SESSION_CONFIGURATION');
    expect(e.message).toContain(`mcpServers.x.command: must be a non-empty string`);
    expect(e.message).toContain(`(in ${join(d, 'a3s.config.json')}:3:23)`);
    const u = fileWith('{\n  "mcpServers": {\n    "x": { "url": "ftp://x" }\n  }\n}\n');
    const f = await failureOf(loadCodeConfig(u));
    expect(f.code).toBe('SESSION_CONFIGURATION');
    expect(f.message).toContain(`mcpServers.x.url: must be an http:// or https:// URL`);
    expect(f.message).toContain(`(in ${join(u, 'a3s.config.json')}:3:19)`);
  });

  it('an mcpServers url with credentials (user:password@) is refused, naming the key and never the password', async () => {
    for (const url of ['http://user:s3cretpw@127.0.0.1:9/mcp', 'https://s3cretpw@example.com/mcp']) {
      const d = fileWith(`{\n  "mcpServers": {\n    "x": { "url": "${url}" }\n  }\n}\n`);
      const e = await failureOf(loadCodeConfig(d));
      expect(e.code).toBe('SESSION_CONFIGURATION');
      expect(e.message).toContain('mcpServers.x.url: must not contain credentials (user:password@host)');
      expect(e.message).toContain('`headers`');
      expect(e.message).toContain(`(in ${join(d, 'a3s.config.json')}:3:19)`);
      expect(e.message).not.toContain('s3cretpw');
    }
  });

  it('BUILD-08: a malformed permission rule names its key path, the grammar and the file, line and column', async () => {
    const d = fileWith('{\n  "permissions": {\n    "deny": ["bash(rm:*)", "bash("]\n  }\n}\n');
    const e = await failureOf(loadCodeConfig(d));
    expect(e.code).toBe('SESSION_CONFIGURATION');
    expect(e.message).toBe(
      `session configuration: permissions.deny[1]: 'bash(': malformed rule; expected 'Tool' or 'Tool(pattern)' (in ${join(d, 'a3s.config.json')}:3:28)`,
    );
    const agent = fileWith(JSON.stringify({ agents: [{ name: 'a', description: 'd', tools: ['read()'] }] }));
    const f = await failureOf(loadCodeConfig(agent));
    expect(f.code).toBe('SESSION_CONFIGURATION');
    expect(f.message).toContain(
      `agents[0].tools[0]: 'read()': empty pattern; expected 'Tool' or 'Tool(pattern)' (in ${join(agent, 'a3s.config.json')}:1:`,
    );
    expect(failure(() => parseCodeConfig({ permissions: { ask: ['ok', '(x)'] } }))).toBe(
      "session configuration: permissions.ask[1]: '(x)': malformed rule; expected 'Tool' or 'Tool(pattern)' (in config)",
    );
  });

  it('a config path that does not exist is named as missing, not searched as a folder', async () => {
    const d = dir();
    const missing = join(d, 'nope', 'config.json');
    expect(await failureOf(loadCodeConfig(missing))).toMatchObject({
      code: 'SESSION_INITIALIZATION',
      message: `session initialisation failed: config: no config file at '${missing}': no such file or folder; allowed: a JSON config file, or a folder with a3s.config.json or .a3s/config.json`,
    });
    expect((await failureOf(loadCodeConfig(d))).message).toBe(
      `session initialisation failed: config: no config file at '${d}' (looked for ${join(d, 'a3s.config.json')}, ${join(d, '.a3s/config.json')})`,
    );
    expect((await failureOf(loadCodeConfig('/dev/null'))).message).toContain(
      "'/dev/null' is not a regular file or a folder; allowed: a JSON config file",
    );
  });

  it('locates the first JSON syntax error', () => {
    expect(jsonSyntaxError('{"a": 1}')).toBeUndefined();
    expect(jsonSyntaxError('[1, 2.5e3, true, null, "x\\u00e9"]')).toBeUndefined();
    expect(jsonSyntaxError('{"a": }')).toEqual({ line: 1, column: 7, message: "expected a value, found '}'" });
    expect(jsonSyntaxError('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      line: 3,
      column: 3,
      message: "expected ',' or '}' after the property value, found '\"'",
    });
    expect(jsonSyntaxError("{'a': 1}")).toMatchObject({
      line: 1,
      column: 2,
      message: expect.stringContaining('double-quoted property name'),
    });
    expect(jsonSyntaxError('{"a": 1')).toMatchObject({
      line: 1,
      column: 8,
      message: expect.stringContaining('the end of the text'),
    });
    expect(jsonSyntaxError('{"a": tru}')).toMatchObject({ line: 1, column: 10 });
    expect(jsonSyntaxError('{"a": "x\ny"}')).toMatchObject({
      line: 1,
      column: 9,
      message: expect.stringContaining('control character'),
    });
    expect(jsonSyntaxError('{} x')).toMatchObject({ line: 1, column: 4 });
  });
});

describe('the shipped JSON Schema of a3s.config.json', () => {
  const shipped = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'dist', CONFIG_SCHEMA_FILE), 'utf8'),
  ) as Record<string, unknown>;
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(shipped);

  it('is what the validator generates (rebuild core when this fails)', () => {
    expect(shipped).toEqual(JSON.parse(JSON.stringify(codeConfigJsonSchema())));
  });

  it.each([
    [
      'a full config',
      {
        $schema: 'x',
        model: 'anthropic/claude-sonnet-4-20250514',
        providers: { ollama: { baseUrl: 'http://127.0.0.1:11434/v1' } },
        permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(rm:*)'] },
        pricing: { 'anthropic/claude-sonnet-4-20250514': { inputPerMTok: 3, outputPerMTok: 15 } },
        mcpServers: { gh: { command: 'gh-mcp' } },
      },
    ],
    ['a scripted model', { model: 'scripted:model.json' }],
  ])('accepts what the loader accepts: %s', (_name, config) => {
    expect(() => parseCodeConfig(config)).not.toThrow();
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['an unknown key', { modle: 'openai/gpt-4o' }],
    ['an unknown provider', { providers: { nope: {} } }],
    ['a model without provider', { model: 'gpt-4o' }],
    ['a bad decision', { permissions: { defaultDecision: 'maybe' } }],
    ['a negative price', { pricing: { 'openai/gpt-4o': { inputPerMTok: -1, outputPerMTok: 1 } } }],
    ['a price key without provider', { pricing: { 'gpt-4o': { inputPerMTok: 1, outputPerMTok: 1 } } }],
    ['a string for a number', { maxParallelTasks: '4' }],
  ])('rejects what the loader rejects: %s', (_name, config) => {
    expect(() => parseCodeConfig(config)).toThrow(/session configuration/);
    expect(validate(config)).toBe(false);
  });
});
