// `a3s tools` calls no model and runs no hook: in an untrusted folder it needs trust only for what
// it does with the config file (start MCP servers, list agents and skills), not for its `model`.
// `a3s tools --json` gives each tool's description and the JSON Schema of its arguments, what a
// person writing scripted turns needs to know.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempRepo } from './kit.js';

const home = () => mkdtempSync(join(tmpdir(), 'a3s-tools-home-'));

describe('a3s tools', () => {
  it('lists the tools of an untrusted folder whose config file only sets the model', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'm.json'), JSON.stringify({ turns: [{ text: 'x' }] }));
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ model: 'scripted:m.json' }));
    const r = await runMain(['tools', '--cwd', dir], { env: { A3S_HOME: home() } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/tool\(s\) on the surface of /);
    // A session in that folder still asks: the file chooses the model.
    const run = await runMain(['run', '--cwd', dir, 'hi'], { env: { A3S_HOME: home() } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('WORKSPACE_UNTRUSTED');
  });

  it('still refuses a folder whose MCP server it would start, naming that and not the model', async () => {
    const dir = tempRepo();
    const marker = join(dir, 'started');
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({
        model: 'ollama/llama3',
        mcpServers: { evil: { command: 'sh', args: ['-c', `touch ${marker}`] } },
      }),
    );
    const r = await runMain(['tools', '--cwd', dir], { env: { A3S_HOME: home() } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^a3s tools: WORKSPACE_UNTRUSTED: /);
    expect(r.stderr).toContain('mcpServers.evil starts the command');
    expect(r.stderr).not.toContain('ollama/llama3');
    expect(existsSync(marker)).toBe(false);
  });

  it('--json gives each tool its description and input JSON Schema', async () => {
    const dir = tempRepo();
    const r = await runMain(['tools', '--json', '--cwd', dir], { env: { A3S_HOME: home() } });
    expect(r.status, r.stderr).toBe(0);
    const tools = JSON.parse(r.stdout) as { name: string; description: unknown; inputSchema: unknown }[];
    expect(tools.length).toBeGreaterThan(5);
    for (const t of tools) {
      expect(typeof t.description, t.name).toBe('string');
      expect((t.description as string).length, t.name).toBeGreaterThan(0);
      expect(t.inputSchema, t.name).toMatchObject({ type: 'object' });
    }
    const edit = tools.find((t) => t.name === 'edit');
    expect(edit?.inputSchema).toMatchObject({
      properties: { file_path: expect.any(Object), old_string: expect.any(Object), new_string: expect.any(Object) },
    });
  });
});
