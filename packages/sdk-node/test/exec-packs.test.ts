// The eval and debug packs in SDK sessions, registered by the host (replacing the default ones of
// the same name): exec tier governed like bash, and tool() inside a cell under the session's
// permission rules.
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { debugToolPack } from '@a3s-code/tools-resource/debug';
import { evalToolPack } from '@a3s-code/tools-resource/eval';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}): Promise<Session> {
  const agent = await Agent.create({ model: new ScriptedLlmClient(turns), tools: [evalToolPack, debugToolPack] });
  session = await agent.session(tempRepo(), options);
  return session;
}

const facts = (s: Session, type: string) =>
  s.core.store.log.facts.filter((f) => f.type === type).map((f) => f.payload as Record<string, unknown>);
const cell = (id: string, code: string, language = 'javascript'): ScriptedTurn => ({
  tool_calls: [{ id, name: 'eval', args: { code, language, description: 'check what the cell can do here' } }],
});

describe('eval and debug packs in SDK sessions', () => {
  it('TIER-03: plan mode hides the exec-tier eval and debug; the default surface lists them (TIER-06)', async () => {
    expect((await open([])).toolNames()).toEqual(expect.arrayContaining(['eval', 'debug']));
    await session!.close();
    const plan = await open([], { governance: { mode: 'plan' } });
    expect(plan.toolNames()).not.toContain('eval');
    expect(plan.toolNames()).not.toContain('debug');
  });

  it('EVAL-02: in the default mode an eval call asks first, and without an approver it does not run', async () => {
    const s = await open([cell('e1', 'globalThis.ran = 1'), { text: 'done' }]);
    await s.send('run it');
    expect(facts(s, 'confirmation.answered')).toEqual([
      expect.objectContaining({ tool_call_id: 'e1', approved: false }),
    ]);
    expect(s.core.resources().find((r) => r.capability === 'resource.eval')?.state).toBe('attached');
  });

  it('EVAL-07: tool("read") inside a cell is denied by a policy that denies read; an allowed tool runs', async () => {
    const code =
      'let seen = "";\ntry { await tool("read", { file_path: "README.md" }) } catch (e) { seen = e.message }\nconst listed = await tool("glob", { pattern: "*.md" });\n[seen, listed]';
    const s = await open([cell('e1', code), { text: 'done' }], {
      governance: { yolo: true },
      permissions: { deny: ['read'] },
    });
    await s.send('run it').catch(() => undefined); // the gate may want the exec call's change verified
    const [result] = facts(s, 'tool.result');
    expect(result).toMatchObject({
      tool_call_id: 'e1',
      ok: true,
      output: "[ 'Permission denied: read', 'README.md' ]",
    });
    expect(result?.metadata).toMatchObject({ bridge_calls: 2 });
  });
});
