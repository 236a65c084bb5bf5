// `a3s --version`, `a3s init` and `a3s models`, through `main(argv, io)` in process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCodeConfig } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { schemaReference } from '../src/commands/init.js';
import { runMain } from './kit.js';

const dir = () => mkdtempSync(join(tmpdir(), 'a3s-cli-cmd-'));
const version = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

describe('a3s --version', () => {
  it.each([['--version'], ['-V'], ['-v'], ['version']])('%s prints the cli package version', async (flag) => {
    expect(await runMain([flag])).toEqual({ status: 0, stdout: `a3s ${version}\n`, stderr: '' });
  });
});

describe('a3s init', () => {
  it('writes a starter a3s.config.json whose $schema the config loader accepts', async () => {
    const ws = dir();
    const r = await runMain(['init', '--cwd', ws], { env: { A3S_MODEL: 'anthropic/claude-sonnet-4-20250514' } });
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toContain(`wrote ${join(ws, 'a3s.config.json')}`);
    const written = JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      $schema: pathToFileURL(join(import.meta.dirname, '..', '..', 'core', 'dist', 'config.schema.json')).href,
      model: 'anthropic/claude-sonnet-4-20250514',
      permissions: { allow: [], ask: [], deny: [] },
    });
    expect(await loadCodeConfig(ws)).toEqual({
      model: 'anthropic/claude-sonnet-4-20250514',
      permissions: { allow: [], ask: [], deny: [] },
    });
  });

  it('picks a model from the keys that are set, or says none is set', async () => {
    const ws = dir();
    await runMain(['init'], { cwd: ws, env: { OPENAI_API_KEY: 'sk-test' } });
    expect(JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8'))).toMatchObject({ model: 'openai/gpt-4o' });
    const bare = dir();
    const r = await runMain(['init'], { cwd: bare });
    expect(r.stdout).toContain('no model set');
    expect(JSON.parse(readFileSync(join(bare, 'a3s.config.json'), 'utf8'))).not.toHaveProperty('model');
  });

  it('refuses to overwrite an existing config file without --force (exit 2)', async () => {
    const ws = dir();
    writeFileSync(join(ws, 'a3s.config.json'), '{"model":"openai/gpt-4o"}');
    const r = await runMain(['init', '--model', 'ollama/qwen3:8b'], { cwd: ws });
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr).toBe(
      `a3s init: ${join(ws, 'a3s.config.json')} already exists (it is the workspace's config file); pass --force to overwrite it\n`,
    );
    expect(readFileSync(join(ws, 'a3s.config.json'), 'utf8')).toBe('{"model":"openai/gpt-4o"}');
    expect(await runMain(['init', '--force', '--model', 'ollama/qwen3:8b'], { cwd: ws })).toMatchObject({ status: 0 });
    expect(JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8'))).toMatchObject({ model: 'ollama/qwen3:8b' });
    const dotted = dir();
    mkdirSync(join(dotted, '.a3s'));
    writeFileSync(join(dotted, '.a3s', 'config.json'), '{}');
    expect(await runMain(['init'], { cwd: dotted })).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('.a3s/config.json already exists'),
    });
  });

  it('a folder named a3s.config.json is named as a folder (exit 2), with or without --force', async () => {
    const ws = dir();
    mkdirSync(join(ws, 'a3s.config.json'));
    for (const force of [[], ['--force']]) {
      const r = await runMain(['init', ...force], { cwd: ws });
      expect(r).toMatchObject({ status: 2, stdout: '' });
      expect(r.stderr).toBe(
        `a3s init: ${join(ws, 'a3s.config.json')} is a folder, not a file; remove or rename it, then run a3s init again\n`,
      );
    }
  });

  it('rejects a bad model before writing anything (exit 2)', async () => {
    const ws = dir();
    const r = await runMain(['init', '--model', 'gpt-4o'], { cwd: ws });
    expect(r).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--model gpt-4o: expected 'provider/model'"),
    });
    expect(existsSync(join(ws, 'a3s.config.json'))).toBe(false);
    const env = await runMain(['init'], { cwd: ws, env: { A3S_MODEL: 'opnai/gpt-4o' } });
    expect(env).toMatchObject({ status: 2, stdout: '' });
    expect(env.stderr).toContain(`a3s init: A3S_MODEL=opnai/gpt-4o: unknown provider "opnai"`);
    expect(existsSync(join(ws, 'a3s.config.json'))).toBe(false);
  });

  it('$schema of a workspace without @a3s-code/core is a file:// URL of a readable JSON Schema, not an unpublished URL', async () => {
    const ws = dir();
    expect((await runMain(['init', '--cwd', ws])).status).toBe(0);
    const ref = (JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8')) as { $schema: string }).$schema;
    expect(ref).toMatch(/^file:\/\//);
    const schema = JSON.parse(readFileSync(fileURLToPath(ref), 'utf8')) as Record<string, unknown>;
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema).toMatchObject({ type: 'object', properties: { model: expect.any(Object) } });
  });

  it("$schema is a relative path to the workspace's own @a3s-code/core, from the config file's folder", async () => {
    const ws = dir();
    const installed = join(ws, 'node_modules', '@a3s-code', 'core', 'dist');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'config.schema.json'), '{"type":"object"}');
    expect((await runMain(['init', '--cwd', ws])).status).toBe(0);
    expect(JSON.parse(readFileSync(join(ws, 'a3s.config.json'), 'utf8'))).toMatchObject({
      $schema: './node_modules/@a3s-code/core/dist/config.schema.json',
    });
    expect(schemaReference(ws, join(ws, '.a3s'), '/elsewhere/config.schema.json')).toBe(
      '../node_modules/@a3s-code/core/dist/config.schema.json',
    );
    // The schema of the core a3s runs with, inside the workspace (a clone of this repository): relative too.
    expect(schemaReference('/repo', '/repo', '/repo/packages/core/dist/config.schema.json')).toBe(
      './packages/core/dist/config.schema.json',
    );
    expect(schemaReference('/repo', '/repo', '/usr/lib/node_modules/@a3s-code/core/dist/config.schema.json')).toBe(
      'file:///usr/lib/node_modules/@a3s-code/core/dist/config.schema.json',
    );
  });
});

describe('a3s models', () => {
  it('lists every provider with its key variable and whether it is set, never a value', async () => {
    const ws = dir();
    const secret = 'sk-very-secret-123';
    const r = await runMain(['models', '--cwd', ws], { env: { OPENAI_API_KEY: secret, GROQ_API_KEY: '' } });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(secret);
    for (const id of [
      'openai',
      'anthropic',
      'openai-compatible',
      'deepseek',
      'openrouter',
      'groq',
      'vllm',
      'llamacpp',
      'ollama',
      'lmstudio',
      'scripted',
    ])
      expect(r.stdout).toMatch(new RegExp(`^${id} `, 'm'));
    expect(r.stdout).toMatch(/^openai +OPENAI_API_KEY set +https:\/\/api\.openai\.com\/v1/m);
    expect(r.stdout).toMatch(/^anthropic +ANTHROPIC_API_KEY not set/m);
    expect(r.stdout).toMatch(/^groq +GROQ_API_KEY not set/m);
    expect(r.stdout).toMatch(/^ollama +none needed +http:\/\/127\.0\.0\.1:11434\/v1/m);
    expect(r.stdout).toMatch(/^vllm +OPENAI_API_KEY set +OPENAI_BASE_URL not set \(required\)/m);
    expect(r.stdout).toContain('model: none configured');
  });

  it('--json; the config file names the key variable and the model', async () => {
    const ws = dir();
    writeFileSync(
      join(ws, 'a3s.config.json'),
      JSON.stringify({ model: 'deepseek/deepseek-chat', providers: { deepseek: { apiKeyEnv: 'MY_DS_KEY' } } }),
    );
    const r = await runMain(['models', '--json'], { cwd: ws, env: { MY_DS_KEY: 'secret-value' } });
    expect(r.stdout).not.toContain('secret-value');
    const out = JSON.parse(r.stdout) as { model: unknown; providers: { provider: string }[] };
    expect(out.model).toEqual({ model: 'deepseek/deepseek-chat', from: join(ws, 'a3s.config.json') });
    expect(out.providers.find((p) => p.provider === 'deepseek')).toEqual({
      provider: 'deepseek',
      family: 'openai-compatible',
      keyEnv: 'MY_DS_KEY',
      keyRequired: true,
      keySet: true,
      defaultBaseUrl: 'https://api.deepseek.com/v1',
      baseUrlEnv: 'DEEPSEEK_BASE_URL',
      baseUrlEnvSet: false,
      baseUrlInConfig: false,
    });
    const flag = JSON.parse(
      (await runMain(['models', '--json', '-m', 'ollama/llama3'], { cwd: ws, env: { A3S_MODEL: 'openai/gpt-4o' } }))
        .stdout,
    ) as { model: unknown };
    expect(flag.model).toEqual({ model: 'ollama/llama3', from: '--model' });
  });
});
