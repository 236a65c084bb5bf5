/** The last step of closing a session: its resources and its command runner, then what they left. */
import { endLateWrites } from '../invoker/late-writes.js';
import type { WorkspaceExec } from '../workspace/workspace-services.js';

/**
 * Closes `resources` and `exec` (which kills the processes commands left running), then removes
 * what those processes created against the write rules before they were killed.
 */
export async function closeProcesses(
  resources: readonly { close(): Promise<void> }[],
  exec: WorkspaceExec | undefined,
): Promise<void> {
  await Promise.all([
    ...resources.map((r) => r.close().catch(() => undefined)),
    exec?.close?.().catch(() => undefined),
  ]);
  await endLateWrites(exec);
}
