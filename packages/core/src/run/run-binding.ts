/**
 * A run's capability admission: the generation it pins (a new run pins the published one; a
 * child run shares its parent's scope) and, for a resume, the check of the binding the run
 * recorded against the generation it would run under — before the run is admitted. A drift is
 * refused with `CAPABILITY_DRIFT` naming what changed, unless the host asked to rebind: the run
 * then records `run.rebound` and its model is offered the current tools from then on.
 */
import {
  drafts,
  type Fact,
  type FactDraft,
  type FactLog,
  type RunCapabilityBindingV1,
  type ToolSpec,
} from '@a3s-code/effect';
import type { CapabilityCatalog } from '../catalog/capability-catalog.js';
import { capabilityDrift } from '../catalog/capability-drift.js';
import { CapabilityScope } from '../catalog/capability-scope.js';
import type { GenerationLease } from '../catalog/generation-lease.js';
import { CapabilityDriftError } from '../errors/catalog-errors.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { ToolDefinition } from '../registry/tool-registry.js';
import type { CatalogGeneration } from '../catalog/catalog-generation.js';
import type { RunCheckpoint, RunCheckpointStore } from './run-checkpoint.js';

/** What a run was admitted with. */
export interface CapabilityAdmission {
  /** The run's scope (absent only for a run outside any catalog: a bare executor). */
  readonly scope?: CapabilityScope;
  /** The lease the run holds on its generation (a child run holds none: its parent's covers it). */
  readonly lease?: GenerationLease;
  /** The binding to record when the run was rebound (drift accepted by the host). */
  readonly rebound?: { readonly previous: RunCapabilityBindingV1; readonly binding: RunCapabilityBindingV1 };
}

/** The binding and offered tools a run recorded in `log`: its latest `run.rebound`, else its `run.started`. */
export function bindingInLog(
  log: FactLog,
  runId: string,
): { readonly binding?: RunCapabilityBindingV1; readonly tools?: readonly ToolSpec[] } | undefined {
  const facts = log.facts;
  for (let i = facts.length - 1; i >= 0; i--) {
    const f = facts[i]!;
    if (f.type !== 'run.rebound') continue;
    const p = f.payload as { run_id?: string; capability_binding?: RunCapabilityBindingV1; tools?: ToolSpec[] };
    if (p.run_id === runId)
      return {
        ...(p.capability_binding ? { binding: p.capability_binding } : {}),
        ...(p.tools ? { tools: p.tools } : {}),
      };
  }
  const started = log.get(`run:${runId}`);
  if (started === undefined) return undefined;
  const p = started.payload as { capability_binding?: RunCapabilityBindingV1; tools?: ToolSpec[] };
  // A run offered the tools of the run before it records none of its own (see `openingFacts`).
  const tools = p.tools ?? toolsBefore(facts, started.seq - 1);
  return { ...(p.capability_binding ? { binding: p.capability_binding } : {}), ...(tools ? { tools } : {}) };
}

/** The tools the last `run.started` or `run.rebound` before index `end` recorded, if any did. */
function toolsBefore(facts: readonly Fact[], end: number): ToolSpec[] | undefined {
  for (let i = Math.min(end, facts.length) - 1; i >= 0; i--) {
    const f = facts[i]!;
    if (f.type !== 'run.started' && f.type !== 'run.rebound') continue;
    const tools = (f.payload as { tools?: ToolSpec[] }).tools;
    if (tools !== undefined) return tools;
  }
  return undefined;
}

/** Options of {@link admitCapabilities}. */
export interface AdmitOptions {
  readonly runId: string;
  readonly governance: GovernanceSnapshot;
  readonly catalog?: CapabilityCatalog;
  /** The scope a child run shares with its parent (no lease of its own). */
  readonly scope?: CapabilityScope;
  /** What the resumed run recorded (`tools` undefined when only a checkpoint recorded it). */
  readonly recorded?: { readonly binding: RunCapabilityBindingV1; readonly tools?: readonly ToolSpec[] };
  /** Accept a drift and continue under the current generation. */
  readonly rebind?: boolean;
  /** The tools the model is offered under a generation. */
  readonly offered: (generation: CatalogGeneration) => readonly ToolDefinition[];
}

/**
 * Pins the run's generation and checks a resumed run's binding against it.
 * @throws CapabilityDriftError (nothing held) when the binding drifted and `rebind` is not set.
 */
export function admitCapabilities(options: AdmitOptions): CapabilityAdmission {
  if (options.scope !== undefined) return { scope: options.scope };
  if (options.catalog === undefined) return {};
  const lease = options.catalog.pin(options.runId);
  const scope = CapabilityScope.run(lease.generation, options.governance, options.runId);
  const recorded = options.recorded;
  if (recorded === undefined) return { scope, lease };
  const drift = capabilityDrift(recorded.binding, lease.generation, recorded.tools, options.offered(lease.generation));
  if (drift === undefined) return { scope, lease };
  if (options.rebind !== true) {
    lease.release();
    throw new CapabilityDriftError(options.runId, drift);
  }
  return { scope, lease, rebound: { previous: recorded.binding, binding: lease.generation.binding() } };
}

/** The `run.rebound` fact of a rebind, offering `tools` from now on. */
export function reboundFact(
  runId: string,
  n: number,
  rebound: NonNullable<CapabilityAdmission['rebound']>,
  tools: readonly ToolDefinition[],
  atMs: number,
): FactDraft {
  return drafts.runRebound(runId, n, {
    capability_binding: rebound.binding,
    previous: rebound.previous,
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Record<string, unknown>,
    })),
    at_ms: atMs,
  });
}

/** Options of {@link admitRun}. */
export interface AdmitRunOptions {
  readonly request: { readonly kind: 'prompt' | 'resume'; readonly rebind?: boolean };
  readonly runId: string;
  readonly governance: GovernanceSnapshot;
  /** The session's log: a resumed run's binding is read from it. */
  readonly log: FactLog;
  /** The checkpoint a resume rebuilds from (its binding counts when the log does not record the run). */
  readonly checkpoint?: RunCheckpoint;
  readonly catalog?: CapabilityCatalog;
  readonly scope?: CapabilityScope;
  readonly offered: (generation: CatalogGeneration) => readonly ToolDefinition[];
  /**
   * True for a resume of a log whose last run has ended (nothing is open, so it takes zero
   * steps): it is not held to what that run recorded, since nothing of it runs again.
   */
  readonly quiescent?: boolean;
}

/** Admits a run's capabilities: for a resume, against what the log (or else its checkpoint) recorded. */
export function admitRun(options: AdmitRunOptions): CapabilityAdmission {
  let recorded: AdmitOptions['recorded'];
  if (options.request.kind === 'resume' && options.quiescent !== true) {
    const inLog = bindingInLog(options.log, options.runId);
    if (inLog?.binding) recorded = { binding: inLog.binding, ...(inLog.tools ? { tools: inLog.tools } : {}) };
    else if (inLog === undefined && options.checkpoint?.binding) recorded = { binding: options.checkpoint.binding };
  }
  return admitCapabilities({
    runId: options.runId,
    governance: options.governance,
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    ...(recorded ? { recorded } : {}),
    ...(options.request.rebind === true ? { rebind: true } : {}),
    offered: options.offered,
  });
}

/**
 * The loop checkpoint a resume of `runId` rebuilds from, loaded before the run is admitted: on an
 * empty log, or for a named run that the log does not record and whose checkpoint it has not restored.
 */
export function loadResumeCheckpoint(options: {
  readonly requested: string | undefined;
  readonly runId: string;
  readonly sessionId: string;
  readonly log: FactLog;
  /** The run the folded log has open or last had open. */
  readonly openRunId: string | null;
  readonly store?: RunCheckpointStore;
}): Promise<RunCheckpoint | undefined> | undefined {
  const { log, store, runId } = options;
  // Synchronous when nothing is loaded, so that a run without a checkpoint is created at once.
  if (!store) return undefined;
  if (log.length === 0) return store.loadRunCheckpoint(options.sessionId, runId);
  if (
    options.requested === undefined ||
    log.get(`run:${runId}`) !== undefined ||
    options.openRunId === runId ||
    log.get(`checkpoint:${runId}:0`) !== undefined
  )
    return undefined;
  return store.loadRunCheckpoint(options.sessionId, runId);
}

/** Releases a run's exact generation lease once its supervised work has settled. */
export function releaseAfterSettling(
  lease: GenerationLease | undefined,
  settle: () => Promise<void> | undefined,
): void {
  if (lease === undefined) return;
  const settled = settle() ?? Promise.resolve();
  settled.catch(() => undefined).finally(() => lease.release());
}

/** Options of `resumeRun` and `streamResume`. */
export interface ResumeRunOptions {
  /**
   * Continue under the current capability generation when the run's recorded binding drifted
   * (recorded as `run.rebound`; the model is offered the current tools from then on). Default
   * `false`: a drift is refused with `CAPABILITY_DRIFT`.
   */
  readonly rebind?: boolean;
  /** Cancels the resumed run when aborted, as for `send`. */
  readonly signal?: AbortSignal;
}

/** The run request of a resume. */
export function resumeRequest(
  runId: string | undefined,
  options: ResumeRunOptions,
): { readonly kind: 'resume'; readonly runId?: string; readonly rebind?: boolean } {
  return {
    kind: 'resume',
    ...(runId === undefined ? {} : { runId }),
    ...(options.rebind === true ? { rebind: true } : {}),
  };
}
