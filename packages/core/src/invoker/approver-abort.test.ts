// An approver that never settles and ignores its abort signal must not keep a call waiting: the
// call's abort (run interrupted, host signal, session closed) ends the wait, and the call is
// reported as cancelled, at the top level and nested alike. Before, the top-level call hung for
// ever, and a nested call never ended (its parent was cancelled around it).
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation, createTestToolPack } from '../testing/index.js';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import { ToolInvoker } from './tool-invoker.js';

function setup() {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: ['fs.write', 'exec'] });
  registry.registerPack(pack);
  const asked: string[] = [];
  const deaf: ConfirmationManager = {
    confirm: (request) => {
      asked.push(request.toolId);
      return new Promise(() => {});
    },
  };
  const invoker = new ToolInvoker({ registry, policy: { allow: ['nest'], ask: ['echo'] }, confirmation: deaf });
  return { invoker, state, asked };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 2));
}

describe('an approver that never answers', () => {
  it('TOOL-02: a top-level call waiting on it ends as cancelled when its signal aborts', async () => {
    const { invoker, state, asked } = setup();
    const t = createTestInvocation();
    const pending = invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'x' } }, t.context);
    await until(() => asked.length === 1);
    t.controller.abort(new Error('interrupted'));
    const r = await pending;
    expect(r).toMatchObject({ ok: false, errorKind: 'cancelled' });
    expect(r.output).toMatch(/confirmation of 'echo' was cancelled: interrupted/);
    expect(state.executions).toEqual([]);
    expect(t.events.payloads('toolEnd')).toEqual([expect.objectContaining({ id: 'c1', error_kind: 'cancelled' })]);
  });

  it('TOOL-02: a nested call waiting on it ends as cancelled with its parent, and never runs', async () => {
    const { invoker, state, asked } = setup();
    const t = createTestInvocation();
    const pending = invoker.invoke({ id: 'c1', name: 'nest', args: { tool: 'echo', args: { text: 'x' } } }, t.context);
    await until(() => asked.length === 1);
    t.controller.abort(new Error('interrupted'));
    expect(await pending).toMatchObject({ ok: false, errorKind: 'cancelled' });
    // The nested echo ends too (its own tool_end, cancelled), not only the nest around it.
    await until(() => t.events.payloads('toolEnd').length === 2);
    const ends = t.events.payloads('toolEnd') as { name: string; error_kind: string | null }[];
    expect(ends.map((e) => [e.name, e.error_kind]).sort()).toEqual([
      ['echo', 'cancelled'],
      ['nest', 'cancelled'],
    ]);
    expect(state.executions.map((e) => e.tool)).toEqual(['nest']);
  });
});
