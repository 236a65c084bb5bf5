/**
 * Tests only: a real `ToolInvoker` with the test pack, the memory workspace tools and `program`.
 */
import { ToolInvoker, type ToolInvokerOptions } from '../../invoker/tool-invoker.js';
import type { ToolInvocationResult } from '../../invoker/invocation-types.js';
import { ToolRegistry } from '../../registry/tool-registry.js';
import { createBatchTool } from '../../runtime-tools/batch-tool.js';
import { createTestInvocation, createTestToolPack, type TestToolState } from '../../testing/index.js';
import type { WorkspaceServices } from '../../workspace/workspace-services.js';
import { createProgramTool } from '../program-tool.js';
import { memoryWorkspaceTools } from './workspace-tools.js';

/** A harness: `run(args)` calls `program` as the model (`agent`) or the host. */
export interface ProgramHarness {
  readonly invoker: ToolInvoker;
  readonly state: TestToolState;
  run(args: Record<string, unknown>, source?: 'agent' | 'host', signal?: AbortSignal): Promise<ToolInvocationResult>;
}

/** Builds a harness over `files`, with optional invoker options (policy, hooks, workspace). */
export function programHarness(
  files: Readonly<Record<string, string>> = {},
  options: Partial<ToolInvokerOptions> & { workspace?: WorkspaceServices } = {},
): ProgramHarness {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: ['fs.write'] });
  registry.registerPack(pack);
  registry.registerPack(memoryWorkspaceTools(files));
  registry.add(createProgramTool());
  registry.add(createBatchTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' }, ...options });
  let n = 0;
  return {
    invoker,
    state,
    run(args, source = 'agent', signal) {
      const t = createTestInvocation();
      if (signal !== undefined)
        signal.addEventListener('abort', () => t.controller.abort(signal.reason), { once: true });
      n += 1;
      return invoker.invoke({ id: `p${n}`, name: 'program', args }, t.context, source);
    },
  };
}
