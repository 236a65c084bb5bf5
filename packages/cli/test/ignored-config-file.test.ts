// A deny rule in .a3s/config.json does not apply when the folder also has an a3s.config.json (the
// first file found is read, as documented): every command that reads the config file says so on
// stderr, naming the ignored file and the one read, instead of dropping the rule silently.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

function workspace(): string {
  const dir = tempRepo();
  mkdirSync(join(dir, '.a3s'), { recursive: true });
  writeFileSync(join(dir, '.a3s', 'config.json'), '{"permissions":{"deny":["Bash(ls:*)"]}}');
  writeFileSync(join(dir, 'a3s.config.json'), '{"permissions":{"ask":["Bash(git push:*)"]}}');
  return dir;
}

describe('a config file another one shadows', () => {
  it('a3s run, a3s tools and a3s models warn that .a3s/config.json is ignored, naming a3s.config.json', async () => {
    const dir = workspace();
    const warning = `warning: ${join(dir, '.a3s', 'config.json')} is ignored, and none of its settings or permission rules (deny rules too) apply: ${join(dir, 'a3s.config.json')} is read instead (the first found of a3s.config.json, .a3s/config.json); move what it holds into a3s.config.json and remove it\n`;
    const model = `scripted:${scriptFile([{ text: 'ok' }])}`;
    for (const args of [
      ['run', '--model', model, '--cwd', dir, 'hi'],
      ['tools', '--cwd', dir],
      ['models', '--cwd', dir],
    ]) {
      const r = await runMain(args);
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args[0]).toBe(warning);
    }
    // Left out on purpose: no file is read, so nothing to warn about.
    const ignored = await runMain(['run', '--ignore-workspace-config', '--model', model, '--cwd', dir, 'hi']);
    expect([ignored.status, ignored.stderr]).toEqual([0, '']);
  });
});
