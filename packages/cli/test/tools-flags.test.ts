// `a3s tools` lists a surface that does not depend on the model, on --yolo or on the vibe tiers'
// models: `--model` is checked for its form but never resolved (no key needed, as for the same
// model from A3S_MODEL), and `--yolo` and `--vibe-tier`, which would change nothing there, are
// refused (exit 2) as `a3s run` refuses `--vibe-tier` with vibe mode off.
import { describe, expect, it } from 'vitest';
import { runMain, tempRepo } from './kit.js';

describe('a3s tools: the session flags', () => {
  it('--model of a provider whose key is not set lists the tools, as the same model from A3S_MODEL does', async () => {
    const dir = tempRepo();
    const fromEnv = await runMain(['tools', '--json', '--cwd', dir], { env: { A3S_MODEL: 'openai/gpt-4o' } });
    expect(fromEnv.status, fromEnv.stderr).toBe(0);
    const fromFlag = await runMain(['tools', '--json', '--model', 'openai/gpt-4o', '--cwd', dir]);
    expect([fromFlag.status, fromFlag.stderr]).toEqual([0, '']);
    expect(fromFlag.stdout).toBe(fromEnv.stdout);
    // --model stands in for A3S_MODEL, which is then not looked at (a malformed one does not matter).
    const over = await runMain(['tools', '--model', 'anthropic/claude-x', '--cwd', dir], { env: { A3S_MODEL: 'gpt' } });
    expect(over.status, over.stderr).toBe(0);
    // Its form is still checked.
    expect((await runMain(['tools', '--model', 'opnai/gpt-4o', '--cwd', dir])).status).toBe(2);
  });

  it('--yolo and --vibe-tier (with or without --vibe) are refused with what they apply to (exit 2)', async () => {
    const dir = tempRepo();
    const cases: [string[], string][] = [
      [
        ['--yolo'],
        'a3s tools: --yolo applies to tool calls that would ask (it runs them without asking); a3s tools runs no tool and lists the same tools with or without it, so leave --yolo out\n',
      ],
      [
        ['--vibe-tier', 'fast=openai/gpt-4o-mini'],
        'a3s tools: --vibe-tier sets the model of vibe workers; a3s tools starts no workers and lists the same tools whatever their model (--vibe lists the vibe tools), so leave --vibe-tier out\n',
      ],
      [
        ['--vibe', '--vibe-tier', 'fast=openai/gpt-4o-mini'],
        'a3s tools: --vibe-tier sets the model of vibe workers; a3s tools starts no workers and lists the same tools whatever their model (--vibe lists the vibe tools), so leave --vibe-tier out\n',
      ],
    ];
    for (const [flags, message] of cases) {
      const r = await runMain(['tools', ...flags, '--cwd', dir]);
      expect([r.status, r.stdout, r.stderr], flags.join(' ')).toEqual([2, '', message]);
    }
    const vibe = await runMain(['tools', '--json', '--vibe', '--cwd', dir]);
    expect(vibe.status, vibe.stderr).toBe(0);
    expect((JSON.parse(vibe.stdout) as { name: string }[]).map((t) => t.name)).toContain('vibe_spawn');
  });
});
