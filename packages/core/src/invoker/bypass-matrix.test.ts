/**
 * The bypass matrix: every path by which a call can reach a
 * tool × policy × pre-hook × budget. The target (`write_note`) runs exactly when the kernel's
 * rules say it may, whatever the nesting.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import { createTestInvocation, createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import { createToolCallBudget } from './governance.js';
import type { PreToolHook } from './hooks.js';
import type { InvocationSource, TopLevelSource } from './invocation-types.js';
import { ToolInvoker } from './tool-invoker.js';

const target = { tool: 'write_note', args: { path: 'n.txt', content: 'x' } };
const viaNest = (inner: { tool: string; args: Record<string, unknown> }) => ({
  tool: 'nest',
  args: { tool: inner.tool, args: inner.args },
});
const viaBatch = (inner: { tool: string; args: Record<string, unknown> }) => ({
  tool: 'batch',
  args: { calls: [inner] },
});

interface Path {
  readonly name: string;
  readonly top: TopLevelSource;
  readonly call: { tool: string; args: Record<string, unknown> };
  /** Calls before the target (each consumes budget). */
  readonly wrappers: number;
  /** The source the kernel must give the target. */
  readonly targetSource: InvocationSource;
}

const paths: Path[] = [
  { name: 'agent → target', top: 'agent', call: target, wrappers: 0, targetSource: 'agent' },
  { name: 'agent → nest → target', top: 'agent', call: viaNest(target), wrappers: 1, targetSource: 'nested' },
  { name: 'agent → batch → target', top: 'agent', call: viaBatch(target), wrappers: 1, targetSource: 'nested' },
  {
    name: 'agent → nest → batch → target',
    top: 'agent',
    call: viaNest(viaBatch(target)),
    wrappers: 2,
    targetSource: 'nested',
  },
  { name: 'host → target', top: 'host', call: target, wrappers: 0, targetSource: 'host' },
  { name: 'host → batch → target', top: 'host', call: viaBatch(target), wrappers: 1, targetSource: 'host_nested' },
  {
    name: 'host → nest → target (custom tool: governed)',
    top: 'host',
    call: viaNest(target),
    wrappers: 1,
    targetSource: 'nested',
  },
  {
    name: 'host → batch → nest → target',
    top: 'host',
    call: viaBatch(viaNest(target)),
    wrappers: 2,
    targetSource: 'nested',
  },
  {
    name: 'host → batch → batch → target',
    top: 'host',
    call: viaBatch(viaBatch(target)),
    wrappers: 2,
    targetSource: 'host_nested',
  },
];

type Policy = 'deny' | 'allow' | 'ask-refused' | 'ask-approved';
const policies: Policy[] = ['deny', 'allow', 'ask-refused', 'ask-approved'];

function build(policy: Policy, blockTarget: boolean) {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: ['fs.write'] });
  registry.registerPack(pack);
  registry.add(createBatchTool());
  const rules = { allow: ['nest', 'batch'], deny: [] as string[], ask: [] as string[] };
  if (policy === 'deny') rules.deny.push('Write_note(**)');
  if (policy === 'allow') rules.allow.push('write_note');
  const answers = policy === 'ask-approved' ? [true] : policy === 'ask-refused' ? [false] : [];
  const confirmation = new ScriptedConfirmationManager(answers);
  const hook: PreToolHook = {
    name: 'guard',
    before: (call) =>
      blockTarget && call.name === 'write_note' ? { action: 'block', reason: 'not today' } : undefined,
  };
  const invoker = new ToolInvoker({ registry, policy: rules, confirmation, hooks: { pre: [hook] } });
  return { invoker, state, confirmation };
}

const cases = paths.flatMap((path) =>
  policies.flatMap((policy) =>
    [false, true].flatMap((blocked) => [false, true].map((exhausted) => ({ path, policy, blocked, exhausted }))),
  ),
);

describe('bypass matrix: source × policy × hook × budget', () => {
  it.each(cases)(
    'INV-08/TOOL-06: $path.name | policy=$policy | hook blocks=$blocked | budget exhausted=$exhausted',
    async ({ path, policy, blocked, exhausted }) => {
      const { invoker, state, confirmation } = build(policy, blocked);
      const budget = createToolCallBudget({ limit: exhausted ? path.wrappers : 100 });
      const t = createTestInvocation({ budget });
      const result = await invoker.invoke(
        { id: 'top', name: path.call.tool, args: path.call.args },
        t.context,
        path.top,
      );

      const trusted = path.targetSource === 'host' || path.targetSource === 'host_nested';
      const permitted = trusted || policy === 'allow' || policy === 'ask-approved';
      const shouldRun = permitted && !blocked && !exhausted;
      const ran = state.executions.filter((e) => e.tool === 'write_note');
      expect(ran.length).toBe(shouldRun ? 1 : 0);
      if (shouldRun) expect(ran[0]?.source).toBe(path.targetSource);
      expect(state.notes.has('n.txt')).toBe(shouldRun);

      // Confirmation only ever for model-side sources, and only after validation and policy.
      const asked = confirmation.requests.filter((r) => r.toolName === 'write_note');
      expect(asked.length).toBe(!trusted && policy.startsWith('ask') ? 1 : 0);

      // The target's own tool_end reports why it did not run.
      const ends = t.events.payloads('toolEnd').filter((e) => e.name === 'write_note');
      if (!exhausted || trusted || permitted) {
        expect(ends).toHaveLength(1);
        const kind = ends[0]?.error_kind;
        if (shouldRun) expect(kind).toBeNull();
        else if (!permitted) expect(kind).toBe('permission_denied');
        else if (blocked) expect(kind).toBe('blocked');
        else expect(kind).toBe('budget_exhausted');
      }
      // Wrappers always complete: a nested failure never escapes as an exception.
      expect(result.id).toBe('top');
    },
  );

  it('INV-09: a scoped invoker kept after its call ended cannot be reused', async () => {
    const { pack, state } = createTestToolPack();
    const registry = new ToolRegistry({ capabilities: ['fs.write'] });
    registry.registerPack(pack);
    let leaked: ((name: string, args: unknown) => Promise<{ errorKind?: string }>) | undefined;
    registry.add({
      name: 'leaker',
      description: 'keeps its invoker',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async (_args, ctx) => {
        leaked = (name, args) => ctx.invoker.invoke(name, args);
        return { output: '', exitCode: 0 };
      },
    });
    const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
    await invoker.invoke({ id: 'l', name: 'leaker', args: {} }, createTestInvocation().context, 'host');
    const later = await leaked?.('write_note', target.args);
    expect(later?.errorKind).toBe('cancelled');
    expect(state.executions).toHaveLength(0);
  });
});
