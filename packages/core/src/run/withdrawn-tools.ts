/**
 * Tools a run stops offering: a run is bound to the capability generation it pinned, and keeps
 * offering that generation's tools, but a tool the session has withdrawn since (its resource was
 * closed, its mode turned off, its pack or server removed) cannot be served any more. Before the
 * next model request the run records a `run.rebound` that keeps its binding and offers the tools
 * left, so the log says what each request offered; a call of a withdrawn tool is refused with
 * `TOOL_NOT_FOUND` naming the generation the run is bound to.
 */
import { drafts, type FactDraft, type ToolSpec } from '@a3s-code/effect';
import type { RunEnv } from './run-env.js';

/** What the run offers from this request on, and the fact that records it (none when nothing was withdrawn). */
export interface OfferedTools {
  readonly tools: readonly ToolSpec[];
  readonly draft?: FactDraft;
}

/** `offered` less the tools the run's pinned generation has but the session no longer does. */
export function withoutWithdrawn(env: RunEnv, offered: readonly ToolSpec[]): OfferedTools {
  const scope = env.invocation.capabilities;
  if (scope === undefined) return { tools: offered };
  const pinned = scope.tools;
  const kept = offered.filter((t) => pinned.get(t.name) === undefined || env.invoker.has(t.name));
  if (kept.length === offered.length) return { tools: offered };
  const draft = drafts.runRebound(env.runId, env.store.log.length + 1, {
    capability_binding: scope.generation.binding(),
    tools: kept.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
    at_ms: env.clock(),
  });
  return { tools: kept, draft };
}
