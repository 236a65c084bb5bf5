// A variable the configuration names as holding the model's key (`providers.<p>.apiKeyEnv`) is a
// credential like OPENAI_API_KEY: the commands the model runs go without it, and its value is
// redacted from what they print. Real commands, a real session.
import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { AnthropicClient, OpenAICompatibleClient } from '@a3s-code/providers';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { Agent, type AgentConfig } from '../src/index.js';
import { call, results, workspace } from './read-deny-kit.js';

/** Whether this machine lets a process make user, process and mount namespaces. */
function namespacesHere(): boolean {
  if (process.platform !== 'linux') return false;
  return spawnSync('unshare', ['-Urpf', '--mount-proc', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Runs the model's turns once in `dir` with commands forced apart from the host; the results by call id. */
async function runApart(dir: string, model: ScriptedLlmClient, config: Omit<AgentConfig, 'model'> = {}) {
  const session = await (await Agent.create({ ...config, model })).session(dir, {
    workspace: new LocalWorkspace({ root: dir, isolateCommands: true }),
    governance: { yolo: true },
    gate: { continuation: { enabled: false } },
  });
  await session.send('go', {}).catch(() => undefined);
  await session.close();
  return results(session);
}

const NAME = 'A3S_SDK_WITHHELD_KEY';
const VALUE = 'sdk-withheld-9f3k2x7';
afterEach(() => {
  delete process.env[NAME];
});

describe('a key variable named by the configuration', () => {
  it('SURF-10: commands go without it and its value is redacted from tool output', async () => {
    process.env[NAME] = VALUE;
    const dir = workspace();
    writeFileSync(join(dir, 'copied.txt'), `key=${VALUE}\n`);
    const model = new ScriptedLlmClient([
      call('b1', 'bash', { command: `echo "[$${NAME}]"; env | grep -c ${NAME} || true` }),
      call('b2', 'bash', { command: 'cat copied.txt' }),
      { text: 'done' },
    ]);
    const agent = await Agent.create({ model, providers: { openai: { apiKeyEnv: NAME } } });
    const session = await agent.session(dir, {
      permissions: { allow: ['bash'] },
      gate: { continuation: { enabled: false } },
    });
    await session.send('go', {}).catch(() => undefined);
    await session.close();
    const got = results(session);
    expect(got.get('b1')?.output).toBe('[]\n0\n');
    expect(got.get('b2')?.output).toBe(`key=[REDACTED:${NAME}]\n`);
  });

  it('SURF-10: a key a provider client was given in code: a variable holding it, under any name, is kept from commands, it is redacted, and commands run apart from the host holding it', async () => {
    const name = 'MY_TEAM_LLM_TOKEN';
    const value = 'tok-4h2k9x-given-in-code';
    const unset = 'tok-7q1w3e-never-in-env';
    process.env[name] = value;
    try {
      const model = new OpenAICompatibleClient({
        model: 'gpt-x',
        apiKey: process.env[name],
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      new AnthropicClient({ model: 'claude-x', apiKey: unset, baseUrl: 'http://127.0.0.1:9' });
      const dir = workspace();
      writeFileSync(join(dir, 'copied.txt'), `${value}\n${unset}\n`);
      const session = await (await Agent.create({ model })).session(dir, { governance: { yolo: true } });
      const env = await session.tool('bash', { command: `echo "[$${name}]"; env | grep -c tok- || true` });
      const cat = await session.tool('bash', { command: 'cat copied.txt' });
      // The host's memory holds the key: the commands do not see the host at all (Linux).
      const mem = await session.tool('bash', {
        command: `test -e /proc/${process.pid}/mem && echo sees-host || echo apart`,
      });
      await session.close();
      expect(env.output).toBe('[]\n0\n');
      expect(cat.output).toBe(`[REDACTED:${name}]\n[REDACTED:MODEL_CREDENTIAL]\n`);
      if (namespacesHere()) expect(mem.output).toBe('apart\n');
    } finally {
      delete process.env[name];
    }
  });

  it('run apart from the host (as while its initial environment holds a key), an eval kernel and a program under debug cannot see it', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'requirements.txt'), '');
    const look = `import os\nopen('seen-by-%s.txt' % ('debug' if __name__ == '__main__' else 'eval'), 'w').write(str(os.path.exists('/proc/${process.pid}/environ')))\n`;
    writeFileSync(join(dir, 'look.py'), look);
    const model = new ScriptedLlmClient([
      call('e1', 'eval', {
        code: look.replace("__name__ == '__main__'", 'False'),
        description: 'look for the host process',
      }),
      call('d1', 'debug', { op: 'launch', program: 'look.py', wait_ms: 10_000 }),
      { text: 'done' },
    ]);
    const got = await runApart(dir, model, { providers: { openai: { apiKeyEnv: NAME } } });
    expect(got.get('e1')?.ok, got.get('e1')?.output).toBe(true);
    expect(got.get('d1')?.ok, got.get('d1')?.output).toBe(true);
    expect(readFileSync(join(dir, 'seen-by-eval.txt'), 'utf8')).toBe('False');
    expect(readFileSync(join(dir, 'seen-by-debug.txt'), 'utf8')).toBe('False');
  });

  it('run apart from the host, a kernel started before any command shares the process namespace of the commands after it', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'requirements.txt'), '');
    const model = new ScriptedLlmClient([
      call('e1', 'eval', {
        code: "import os\nopen('ns-eval.txt', 'w').write(os.readlink('/proc/self/ns/pid'))\n",
        description: 'note the kernel process namespace',
      }),
      call('b1', 'bash', { command: 'readlink /proc/self/ns/pid > ns-bash.txt' }),
      { text: 'done' },
    ]);
    const got = await runApart(dir, model);
    expect(got.get('e1')?.ok, got.get('e1')?.output).toBe(true);
    const kernel = readFileSync(join(dir, 'ns-eval.txt'), 'utf8');
    expect(kernel).toMatch(/^pid:\[\d+\]$/);
    expect(readFileSync(join(dir, 'ns-bash.txt'), 'utf8').trim()).toBe(kernel);
    expect(kernel).not.toBe(readlinkSync('/proc/self/ns/pid'));
  });
});
