// A folder's own `.a3s/agents/*.md` that names a `model` would have a delegation call that model
// with the person's key: it needs the folder's trust like the config file (asked even when the
// folder has no config file), and a changed agent file asks again.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { runMain, scriptFile, tempRepo } from './kit.js';
import { onTerminal, until } from './terminal-kit.js';

const home = () => mkdtempSync(join(tmpdir(), 'a3s-trust-home-'));
const model = () => `scripted:${scriptFile([{ text: 'Hello.' }])}`;
const NEED = ".a3s/agents/evil.md has the sub-agent 'evil' use model 'openai/attacker-chosen-model'";

/** Writes `<dir>/.a3s/agents/evil.md`, naming `model` when given. */
function agentFile(dir: string, model?: string, body = 'Do as you are told.'): void {
  mkdirSync(join(dir, '.a3s', 'agents'), { recursive: true });
  writeFileSync(
    join(dir, '.a3s', 'agents', 'evil.md'),
    `---\nname: evil\ndescription: does everything\n${model === undefined ? '' : `model: ${model}\n`}---\n${body}\n`,
  );
}

describe("the folder's agent files that name a model need the folder's trust", () => {
  it('a folder with no config file is asked about its agent file; --trust-workspace is remembered; a changed file asks again', async () => {
    const dir = tempRepo();
    agentFile(dir, 'openai/attacker-chosen-model');
    const env = { A3S_HOME: home(), OPENAI_API_KEY: 'sk-user-secret' };
    const refused = await runMain(['run', '--model', model(), '--cwd', dir, 'hi'], { env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^a3s run: WORKSPACE_UNTRUSTED: /);
    expect(refused.stderr).toContain(NEED);
    expect(refused.stderr).toContain('--trust-workspace');

    const trusted = await runMain(['run', '--trust-workspace', '--model', model(), '--cwd', dir, 'hi'], { env });
    expect(trusted.status, trusted.stderr).toBe(0);
    expect((await runMain(['run', '--model', model(), '--cwd', dir, 'again'], { env })).status).toBe(0);

    // The same model, other instructions: the file changed, so it is asked about again.
    agentFile(dir, 'openai/attacker-chosen-model', 'Other instructions.');
    const changed = await runMain(['run', '--model', model(), '--cwd', dir, 'hi'], { env });
    expect(changed.status).toBe(2);
    expect(changed.stderr).toContain('it changed since you trusted this folder');
    expect(changed.stderr).toContain(NEED);
  });

  it('a config file trusted before the agent file came is asked about again, listing both', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { allow: ['read'] } }));
    const env = { A3S_HOME: home() };
    expect((await runMain(['run', '--trust-workspace', '--model', model(), '--cwd', dir, 'hi'], { env })).status).toBe(
      0,
    );
    agentFile(dir, 'openai/attacker-chosen-model');
    const r = await runMain(['run', '--model', model(), '--cwd', dir, 'hi'], { env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('permissions.allow lets read run without asking');
    expect(r.stderr).toContain(NEED);
  });

  it('an agent file without a model needs no trust', async () => {
    const dir = tempRepo();
    agentFile(dir);
    const r = await runMain(['run', '--model', model(), '--cwd', dir, 'hi'], { env: { A3S_HOME: home() } });
    expect(r.status, r.stderr).toBe(0);
  });

  it('a3s tools, which calls no model, lists the tools of such a folder without asking', async () => {
    const dir = tempRepo();
    agentFile(dir, 'openai/attacker-chosen-model');
    const r = await runMain(['tools', '--model', model(), '--cwd', dir], { env: { A3S_HOME: home() } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('task');
  });

  it('a3s code on a terminal lists the agent file in its trust question', async () => {
    const dir = tempRepo();
    agentFile(dir, 'openai/attacker-chosen-model');
    const t = onTerminal(home());
    const asked = main(['code', '--model', model(), '--cwd', dir], t.io);
    await until(() => t.out().includes('trust this folder? [y/N]'));
    const text = () => t.out();
    expect(text()).toContain(NEED);
    t.stdin.write('n\n');
    expect(await asked).toBe(2);
    expect(text()).toContain('not trusted, so nothing was started');
  });
});
