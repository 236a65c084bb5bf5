// A vibe tier whose model cannot be used (its key is not set) stops only what would use it: with
// vibe mode off at the start the session opens, and the first vibe_* call after setVibeMode(true)
// fails naming the tier; with vibe mode on at the start, opening the session fails as before.
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const tiers = { fast: 'openai/gpt-4o-mini' };
const TIER_ERROR =
  /vibe\.tiers\.fast: cannot use the fast tier's model 'openai\/gpt-4o-mini': OPENAI_API_KEY: is not set/;

describe('vibe tiers resolve only when vibe mode is on', () => {
  it('a session with vibe off opens; the first vibe_spawn after turning it on fails naming the tier', async () => {
    const lead = new ScriptedLlmClient([
      { tool_calls: [{ id: 's1', name: 'vibe_spawn', args: { brief: 'Report.', label: 'r' } }] },
      { text: 'No worker.' },
    ]);
    const agent = await Agent.create({ model: lead, env: {} });
    const session = await agent.session(tempRepo(), { vibe: { enabled: false, tiers } });
    opened.push(session);
    expect(session.vibeMode).toBe(false);
    session.setVibeMode(true);
    const r = await session.send('go');
    expect(r.status).toBe('completed');
    const spawn = toolResults(session).get('s1');
    expect(spawn?.ok).toBe(false);
    expect(spawn?.output).toMatch(TIER_ERROR);
  });

  it('with vibe on at the start, opening the session fails with the tier error', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), env: {} });
    await expect(agent.session(tempRepo(), { vibe: { tiers } })).rejects.toMatchObject({
      code: 'MODEL_CONFIGURATION',
      message: expect.stringMatching(TIER_ERROR),
    });
  });
});
