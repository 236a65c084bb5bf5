/**
 * How a host registers `dynamic_workflow` on its sessions: it plugs in the pack
 * {@link createDynamicWorkflowPack} makes, whose resource `resource.workflow` carries the host's
 * named flows and its progress listener. Core's own `dynamic_workflow` tool requires that
 * resource, so it is on a session's surface exactly when the host plugged the pack in. Each named
 * flow is also a `flow` contribution of the session's capability catalog, digested with its
 * definition, so a run resumed after a flow changed is refused as a capability drift.
 */
import type { CapabilityContribution } from '../catalog/capability-kinds.js';
import { digestOf } from '../catalog/digest.js';
import { defineToolPack, type ToolPack } from '../tools/tool-pack.js';
import type { OpenedResource } from '../tools/tool-resource.js';
import type { WorkflowDefinition } from './workflow-definition.js';
import { WorkflowDefinitionError } from './workflow-errors.js';
import type { WorkflowProgressEvent } from './workflow-runner.js';

/** The capability the pack provides and `dynamic_workflow` requires. */
export const WORKFLOW_RESOURCE = 'resource.workflow';

/** Options of {@link createDynamicWorkflowPack}. */
export interface DynamicWorkflowPackOptions {
  /** Named flows callers run with `{ flow: '<name>', query }` (checked when they run). */
  readonly flows?: Readonly<Record<string, WorkflowDefinition>>;
  /** Receives every step's progress (`started`, `completed`, `recovered`, `failed`) of every run. */
  readonly onProgress?: (event: WorkflowProgressEvent) => void;
}

/** The opened resource: what `dynamic_workflow` reads at each call. */
export interface WorkflowResourceHandle extends OpenedResource {
  readonly flows: ReadonlyMap<string, WorkflowDefinition>;
  readonly onProgress: (event: WorkflowProgressEvent) => void;
}

const FLOW_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The `flow` contributions of the packs this module made: the session names the flows in the
 * tool's description and publishes them in its capability catalog.
 */
const packFlows = new WeakMap<ToolPack, readonly CapabilityContribution[]>();

/** Names of the flows of `packs` made by {@link createDynamicWorkflowPack} (core-internal). */
export function flowNamesOf(packs: readonly ToolPack[]): readonly string[] {
  return flowContributionsOf(packs).map((c) => c.name);
}

/**
 * The `flow` contributions of `packs` made by {@link createDynamicWorkflowPack} (core-internal):
 * one per named flow, whose descriptor is the digest of the flow's whole definition (its steps,
 * their kinds, sources, paths, prompts, schemas, allowed tools, limits, inputs and output), so any
 * change to what the flow does changes the contribution. A program step's `path` is covered as a
 * path: the file is workspace content, read when the step runs.
 */
export function flowContributionsOf(packs: readonly ToolPack[]): readonly CapabilityContribution[] {
  return packs.flatMap((p) => packFlows.get(p) ?? []);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The pack that registers `dynamic_workflow` on a session, with the host's named flows. The flows
 * are copied now and checked completely each time one runs (a bad one fails that run with
 * `WORKFLOW_INVALID` naming the flow, the field and the step); check them at start-up with
 * `defineWorkflow` when a bad flow should stop the host instead. Making the pack loads nothing.
 * @throws WorkflowDefinitionError for a flow name that is not 1-64 of `[A-Za-z0-9_-]`.
 */
export function createDynamicWorkflowPack(options: DynamicWorkflowPackOptions = {}): ToolPack {
  const flows = new Map<string, WorkflowDefinition>();
  for (const [name, definition] of Object.entries(options.flows ?? {})) {
    if (!FLOW_NAME.test(name))
      throw new WorkflowDefinitionError(`flows.${name}`, 'a flow name must be 1-64 of [A-Za-z0-9_-]');
    flows.set(name, deepFreeze(structuredClone(definition)));
  }
  const onProgress = options.onProgress ?? (() => undefined);
  const pack = defineToolPack({
    name: '@a3s-code/core/dynamic-workflow',
    version: '0.1.0',
    tools: [],
    resources: [
      {
        capability: WORKFLOW_RESOURCE,
        open: async (): Promise<WorkflowResourceHandle> => ({ flows, onProgress, close: async () => undefined }),
      },
    ],
  });
  packFlows.set(
    pack,
    Object.freeze(
      [...flows].map(
        ([name, definition]): CapabilityContribution =>
          Object.freeze({ kind: 'flow', name, source: pack.name, descriptor: { definition: digestOf(definition) } }),
      ),
    ),
  );
  return pack;
}
