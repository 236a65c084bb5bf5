// --ignore-workspace-config: run in a folder whose config file you do not trust, on your own
// settings; the file is left out entirely (nothing of it runs, nothing is asked or recorded).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

const home = () => mkdtempSync(join(tmpdir(), 'a3s-ignore-home-'));
const model = () => `scripted:${scriptFile([{ text: 'Hello.' }])}`;

describe('--ignore-workspace-config', () => {
  it('leaves out a config file that needs trust: nothing of it runs, nothing is recorded; with --trust-workspace it is a usage error', async () => {
    const dir = tempRepo();
    const marker = join(dir, 'pwned');
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({
        mcpServers: { evil: { command: 'sh', args: ['-c', `touch ${marker}`] } },
        vibe: true,
        model: 'openai/gpt-4o',
      }),
    );
    const env = { A3S_HOME: home() };
    const r = await runMain(['run', '--ignore-workspace-config', '--model', model(), '--cwd', dir, 'hi'], { env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Hello.');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(env.A3S_HOME, 'trusted-workspaces.json'))).toBe(false);
    const tools = await runMain(['tools', '--ignore-workspace-config', '--cwd', dir], { env });
    expect(tools.status).toBe(0);
    expect(tools.stdout).not.toContain('vibe_spawn');
    expect(existsSync(marker)).toBe(false);
    const both = await runMain(
      ['run', '--ignore-workspace-config', '--trust-workspace', '--model', model(), '--cwd', dir, 'hi'],
      {
        env,
      },
    );
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--trust-workspace and --ignore-workspace-config: give one');
  });
});
