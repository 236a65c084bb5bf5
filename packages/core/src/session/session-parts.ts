/** What an `AgentSession` is assembled from (see `Agent.session`). */
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import type { SessionCapabilityCatalog } from '../catalog/session-capability-catalog.js';
import type { Delegator } from '../delegation/delegator.js';
import type { SessionGate } from '../gate/session-gate.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { SessionResources } from '../registry/session-resources.js';
import type { SessionArtifactStore } from './session-artifacts.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** Everything a session is assembled from (see `Agent.session`). */
export interface SessionParts {
  /** The one resolved configuration every part of the session reads. */
  readonly config: ResolvedSessionConfig;
  /** The session's capability catalog: runs pin its generations. */
  readonly catalog: SessionCapabilityCatalog;
  readonly invoker: ToolInvoker;
  /** The artifact store the invoker caps outputs into (listed into snapshots). */
  readonly artifacts: SessionArtifactStore;
  /** The snapshot this session was resumed from (`agent.resumeSession`). */
  readonly restored?: SessionSnapshotV1;
  /** The session's completion gate (ledger, reports, waivers). */
  readonly gate: SessionGate;
  /** The layered system prompt sections. */
  readonly system: readonly string[];
  /** Called once when the session closes. */
  readonly onClose?: () => void;
  /** Released when the session closes (what the packs opened for it, e.g. the web search's browser). */
  readonly resources?: readonly { close(): Promise<void> }[];
  /** The session's pack resources: their failures become host `error` events and `resources()` lists them. */
  readonly sessionResources?: SessionResources;
  /** The session's provider budget, shared with the delegator's child runs. */
  readonly llmBudget?: LlmBudget;
  /** The session's sub-agent state (tasks, background results, children of runs). */
  readonly delegator?: Delegator;
}
