// `a3s init` in a workspace whose config file is `.a3s/config.json`: that file is the one named,
// and the one --force overwrites (no second file that would shadow it); the help states the real
// order in which a command finds its model.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCodeConfig } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { runMain } from './kit.js';

/** A workspace whose only config file is `.a3s/config.json`. */
function dotted(content: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'a3s-init-'));
  mkdirSync(join(ws, '.a3s'));
  writeFileSync(join(ws, '.a3s', 'config.json'), content);
  return ws;
}

describe('a3s init with .a3s/config.json', () => {
  it('refuses naming .a3s/config.json, and --force overwrites it in place', async () => {
    const ws = dotted('{"model":"openai/gpt-4o"}');
    const file = join(ws, '.a3s', 'config.json');
    const refused = await runMain(['init', '--model', 'ollama/qwen3:8b'], { cwd: ws });
    expect(refused).toMatchObject({ status: 2, stdout: '' });
    expect(refused.stderr).toBe(
      `a3s init: ${file} already exists (it is the workspace's config file); pass --force to overwrite it\n`,
    );
    const forced = await runMain(['init', '--force', '--model', 'ollama/qwen3:8b'], { cwd: ws });
    expect(forced).toMatchObject({ status: 0, stdout: `wrote ${file}\n` });
    expect(existsSync(join(ws, 'a3s.config.json'))).toBe(false);
    expect(await loadCodeConfig(ws)).toMatchObject({ model: 'ollama/qwen3:8b' });
  });

  it('a scripted model is written relative to .a3s, where the file is', async () => {
    const ws = dotted('{}');
    writeFileSync(join(ws, 'model.json'), '{"turns":[{"text":"Hi."}]}');
    expect(await runMain(['init', '--force', '--model', 'scripted:model.json'], { cwd: ws })).toMatchObject({
      status: 0,
    });
    expect(JSON.parse(readFileSync(join(ws, '.a3s', 'config.json'), 'utf8'))).toMatchObject({
      model: 'scripted:../model.json',
    });
    expect(await loadCodeConfig(ws)).toMatchObject({ model: `scripted:${join(ws, 'model.json')}` });
  });

  it('with both files, the one read is named and overwritten, and the other is said to be unread', async () => {
    const ws = dotted('{}');
    writeFileSync(join(ws, 'a3s.config.json'), '{}');
    const unread = `${join(ws, '.a3s', 'config.json')} is also there, and is not read while ${join(ws, 'a3s.config.json')} exists`;
    const refused = await runMain(['init'], { cwd: ws });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${join(ws, 'a3s.config.json')} already exists`);
    expect(refused.stderr).toContain(unread);
    const forced = await runMain(['init', '--force', '--model', 'ollama/qwen3:8b'], { cwd: ws });
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain(`note: ${unread}; remove it to keep one config file`);
  });

  it('the help states the order a command finds its model in: --model, the config file, A3S_MODEL', async () => {
    const r = await runMain(['init', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      "The model a command uses is --model first, then the config file's model, then A3S_MODEL.",
    );
    expect(r.stdout).not.toContain('A3S_MODEL still win');
  });
});
