// Vibe mode switched while a run is in the middle of a tool call: the run stays bound to the
// capability generation it pinned. Turned off, the vibe_* tools the session withdrew are no
// longer offered from the run's next request on (the log records the narrowed offer under the
// same binding), and a call of one is refused naming that generation, not as a closed resource.
// Turned on, the run does not get the tools the later generation added.
import { fold, type ToolSpec } from '@a3s-code/effect';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { holdPack, tempRepo, toolResults } from './kit.js';

const VIBE = ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'];
const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function toggledMidRun(startOn: boolean) {
  const hold = holdPack();
  const model = new ScriptedLlmClient([
    { tool_calls: [{ id: 'h', name: 'hold', args: {} }] },
    { tool_calls: [{ id: 'v', name: 'vibe_list', args: {} }] },
    { text: 'done' },
  ]);
  const agent = await Agent.create({ model, tools: [hold.pack] });
  const session = await agent.session(tempRepo(), {
    governance: { yolo: true },
    vibe: { enabled: startOn },
    web: false,
  });
  opened.push(session);
  const bound = session.catalog.current.generation;
  const run = session.send('hold, then list the workers');
  await hold.inside;
  session.setVibeMode(!startOn);
  expect(session.catalog.current.generation).toBe(bound + 1);
  hold.release();
  expect(await run).toMatchObject({ status: 'completed', text: 'done' });
  const offered = model.requests.map((r) => r.tools.map((t) => t.name).filter((n) => n.startsWith('vibe_')));
  return { session, model, bound, offered, result: toolResults(session).get('v')! };
}

describe('vibe mode switched during a run', () => {
  it('turned off: the run stops offering the vibe_* tools and refuses a call naming its generation', async () => {
    const { session, model, bound, offered, result } = await toggledMidRun(true);
    expect(offered[0]).toEqual(VIBE);
    expect(offered[1]).toEqual([]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      `tool 'vibe_list' was withdrawn from the session after capability generation ${bound}, which this run is bound to`,
    );
    expect(result.output).toContain("'resource.vibe-mode'");
    expect(result.output).not.toMatch(/it was closed/);
    expect(result.metadata).toMatchObject({ error_code: 'TOOL_NOT_FOUND', error_kind: 'not_found' });
    // The log says what the second request offered: the run keeps its binding, less the vibe tools.
    const facts = session.core.store.log.facts;
    const rebound = facts.filter((f) => f.type === 'run.rebound');
    expect(rebound).toHaveLength(1);
    const payload = rebound[0]!.payload as { capability_binding: { generation: number }; tools: ToolSpec[] };
    expect(payload.capability_binding.generation).toBe(bound);
    expect(payload.tools.map((t) => t.name)).toEqual(model.requests[1]!.tools.map((t) => t.name));
    // Replayed from the log alone, the run offers what its later requests were offered.
    const replayed = fold(facts.slice(0, facts.indexOf(rebound[0]!) + 1));
    expect(replayed.view.tools.map((t) => t.name)).toEqual(model.requests[1]!.tools.map((t) => t.name));
    expect(model.requests[2]!.tools.map((t) => t.name)).toEqual(model.requests[1]!.tools.map((t) => t.name));
  });

  it('turned on: the run is not offered the tools of the later generation and a call is refused as such', async () => {
    const { session, bound, offered, result } = await toggledMidRun(false);
    expect(offered).toEqual([[], [], []]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(`tool 'vibe_list' is not in capability generation ${bound}`);
    expect(session.core.store.log.facts.some((f) => f.type === 'run.rebound')).toBe(false);
  });
});
