// A vibe tier kept ready with `"enabled": false` whose provider key is not set: sessions that never
// turn vibe mode on are not stopped by it (the tier resolves on the first vibe_* call); `a3s models`
// names it; with vibe mode on, the refusal's hint does not repeat a --model that cannot help.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

/** A repository whose config keeps the fast tier on an OpenAI model, vibe mode off or on. */
function repo(enabled: boolean): string {
  const dir = tempRepo();
  writeFileSync(
    join(dir, 'a3s.config.json'),
    JSON.stringify({ vibe: { enabled, tiers: { fast: 'openai/gpt-4o-mini' } } }),
  );
  return dir;
}
const NO_KEY = { OPENAI_API_KEY: '' };

describe('a vibe tier whose key is not set', () => {
  it('does not stop a3s run, a3s tools or a3s code while vibe mode is off; a3s models names it and exits 0', () => {
    const dir = repo(false);
    const model = `scripted:${scriptFile([{ text: 'Hello from a scripted model.' }])}`;
    const run = a3s(['run', '--trust-workspace', '--cwd', dir, '--model', model, 'say hello'], NO_KEY);
    expect(run.stderr).not.toContain('MODEL_CONFIGURATION');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Hello from a scripted model.');
    const tools = a3s(['tools', '--trust-workspace', '--cwd', dir], NO_KEY);
    expect(tools.status, tools.stderr).toBe(0);
    const models = a3s(['models', '--cwd', dir], NO_KEY);
    expect(models.status, models.stdout).toBe(0);
    expect(models.stdout).toContain('vibe tier fast: openai/gpt-4o-mini');
    expect(models.stdout).toMatch(
      /vibe\.tiers\.fast \(in .*a3s\.config\.json\): openai\/gpt-4o-mini: openai: OPENAI_API_KEY is not set; vibe mode starts off, so only turning it on \(--vibe, \/vibe on\) would fail: export OPENAI_API_KEY=<your key>/,
    );
    const json = JSON.parse(a3s(['models', '--cwd', dir, '--json'], NO_KEY).stdout) as {
      vibeTiers: { tier: string; vibeOn: boolean; problem?: string }[];
    };
    expect(json.vibeTiers).toMatchObject([
      { tier: 'fast', vibeOn: false, problem: expect.stringContaining('OPENAI_API_KEY') },
    ]);
  });

  it('fails the first vibe_* call, naming the tier, once /vibe on turns vibe mode on', () => {
    const dir = repo(false);
    const lead = scriptFile([
      { tool_calls: [{ id: 's1', name: 'vibe_spawn', args: { brief: 'Report.', label: 'r' } }] },
      { text: 'The worker did not start.' },
    ]);
    const r = a3s(['code', '--trust-workspace', '--cwd', dir, '--model', `scripted:${lead}`], NO_KEY, '/vibe on\ngo\n');
    expect(r.status, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('vibe mode on: the agent can conduct background workers');
    expect(r.stdout).toMatch(
      /vibe_spawn[\s\S]*failed to open: model configuration: vibe\.tiers\.fast: cannot use the fast tier/,
    );
  });

  it('with vibe mode on, a3s run refuses it with a hint naming the tier (not --model), and a3s models exits 2', () => {
    const dir = repo(true);
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const run = a3s(['run', '--trust-workspace', '--cwd', dir, '--model', model, 'say hello'], NO_KEY);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("vibe.tiers.fast: cannot use the fast tier's model 'openai/gpt-4o-mini'");
    expect(run.stderr).toContain('hint: export OPENAI_API_KEY=<your key>');
    expect(run.stderr).toContain(`hint: the fast tier's model comes from "vibe": { "tiers": { "fast": … } }`);
    expect(run.stderr).not.toContain('--model scripted:model.json');
    const models = a3s(['models', '--cwd', dir], NO_KEY);
    expect(models.status, models.stdout).toBe(2);
    expect(models.stdout).toContain('OPENAI_API_KEY is not set; a3s run would refuse it');
  });
});
