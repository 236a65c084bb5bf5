import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { A3sError } from '@a3s-code/effect';
import { Agent } from '../session/agent.js';
import { ScriptedLlmClient } from './scripted-llm-client.js';

function workspace(config: object, script?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-file-scripted-'));
  writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify(config));
  if (script !== undefined) writeFileSync(join(dir, 'm.json'), JSON.stringify(script));
  return dir;
}

describe('a scripted model named in a config file, with core alone', () => {
  it('Agent.create(dir) plays "scripted:<file.json>" (relative to the config file) as the model', async () => {
    const dir = workspace({ model: 'scripted:m.json', persistence: 'memory' }, { turns: [{ text: 'hi from file' }] });
    const agent = await Agent.create(dir);
    expect(agent.config.model).toBeInstanceOf(ScriptedLlmClient);
    const s = await agent.session(dir);
    expect(await s.send('go')).toMatchObject({ status: 'completed', text: 'hi from file' });
    await s.close();
  });

  it('a script file that is missing is a ScriptError naming it, not an unknown provider', async () => {
    const dir = workspace({ model: 'scripted:none.json' });
    const e = await Agent.create(dir).catch((x: unknown) => x);
    expect((e as A3sError).code).toBe('INVALID_SCRIPT');
    expect((e as Error).message).toContain(join(dir, 'none.json'));
  });

  it('a scripted: string in the object form says what opens it', async () => {
    const e = await Agent.create({ model: 'scripted:m.json' }).catch((x: unknown) => x);
    expect((e as A3sError).code).toBe('SESSION_CONFIGURATION');
    expect((e as Error).message).toMatch(/model: 'scripted:<file\.json>' is a script file/);
    expect((e as Error).message).toContain('ScriptedLlmClient.fromFile');
    expect((e as Error).message).not.toContain('unknown provider');
  });
});
