import { describe, expect, it } from 'vitest';
import { CapabilityScope } from '../catalog/capability-scope.js';
import { CapabilityCatalog } from '../catalog/capability-catalog.js';
import { permissionCeiling } from '../catalog/permission-ceiling.js';
import { nullEventSink } from '../events/agent-event.js';
import { createLiveInvocation, enterTurn, narrowLiveGovernance } from './live-governance.js';

function runScope(): CapabilityScope {
  const catalog = new CapabilityCatalog({
    project: () => ({ tools: [], contributions: [] }),
    ceiling: permissionCeiling({}, {}),
  });
  return CapabilityScope.run(catalog.current, {}, 'run-1');
}

describe('turn scopes of a live run', () => {
  it('CAP-07: each model turn works in a turn scope of the run (same generation); a skill narrows it; subtasks hang off the turn', async () => {
    const run = runScope();
    const ctx = createLiveInvocation(
      {
        runId: 'run-1',
        sessionId: 's',
        signal: new AbortController().signal,
        events: nullEventSink,
        capabilities: run,
      },
      {},
    );
    expect(ctx.capabilities).toBe(run);
    enterTurn(ctx, 1);
    const first = ctx.capabilities!;
    expect(first).toMatchObject({ kind: 'turn', owner: 'run-1:turn:1', parent: run });
    expect(first.generation).toBe(run.generation);
    enterTurn(ctx, 2);
    expect(ctx.capabilities).toMatchObject({ kind: 'turn', owner: 'run-1:turn:2', parent: run });
    // A skill loaded in turn 2 narrows the rest of the run, its turn scope included.
    narrowLiveGovernance(ctx, (g) => ({ ...g, restrictions: [{ name: 'skill:review', allowedTools: ['read'] }] }));
    expect(ctx.capabilities!.governance.restrictions).toEqual([{ name: 'skill:review', allowedTools: ['read'] }]);
    const task = ctx.capabilities!.subtask('task-1', ctx.governance);
    expect(task).toMatchObject({ kind: 'subtask', parent: { kind: 'turn', owner: 'run-1:turn:2' } });
    expect(task.generation).toBe(run.generation);
  });

  it('a run without a pinned scope has none in any turn', () => {
    const ctx = createLiveInvocation(
      { runId: 'r', sessionId: 's', signal: new AbortController().signal, events: nullEventSink },
      {},
    );
    enterTurn(ctx, 1);
    expect(ctx.capabilities).toBeUndefined();
  });
});
