// `a3s run` flags that would do nothing, or a prompt taken for a flag: `--vibe-tier` with vibe mode
// off is refused (exit 2), as `a3s sessions` refuses session flags without --resume, before a key
// for that unused tier can fail the run; an unknown option on `a3s run` says how to send a prompt
// that starts with a dash.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggedPrompts, runMain, scriptFile, tempRepo } from './kit.js';

const hello = (): string => `scripted:${scriptFile([{ text: 'Hello.' }])}`;

describe('a3s run: --vibe-tier without vibe mode', () => {
  it('is refused (exit 2) with what it applies to, before any key is looked for', async () => {
    const dir = tempRepo();
    const r = await runMain(['run', '--model', hello(), '--vibe-tier', 'fast=openai/gpt-4o-mini', '--cwd', dir, 'hi']);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `a3s run: --vibe-tier applies only with vibe mode on (--vibe, or "vibe" in the workspace's config file: the workers whose model it sets); a3s run without it starts no workers, so add --vibe or leave --vibe-tier out\n`,
    ]);
    expect(loggedPrompts(dir)).toBe(0);
  });

  it('is taken when the config file turns vibe mode on', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ vibe: true }));
    const r = await runMain(['run', '--model', hello(), '--vibe-tier', `fast=${hello()}`, '--cwd', dir, 'hi']);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('a3s run: a prompt that starts with a dash', () => {
  it('the unknown option says the prompt goes after --, and that works', async () => {
    const dir = tempRepo();
    const r = await runMain(['run', '--model', hello(), '--cwd', dir, '-fix']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option '-fix'; a3s run takes --model <value>");
    expect(r.stderr).toContain('; a prompt that starts with a dash goes after --: a3s run -- -fix (see');
    const spaced = await runMain(['run', '--model', hello(), '--cwd', dir, '--fix the bug']);
    expect(spaced.stderr).toContain("goes after --: a3s run -- '--fix the bug'");
    expect((await runMain(['run', '--model', hello(), '--cwd', dir, '--', '-fix'])).status).toBe(0);
  });

  it('is not offered for a flag typo with a close match, nor by other commands', async () => {
    expect((await runMain(['run', 'hi', '-yolo'])).stderr).not.toContain('goes after --');
    expect((await runMain(['tools', '-zzz'])).stderr).not.toContain('goes after --');
  });
});
