/**
 * The `tool` transition: runs the call already recorded in the log through the governed kernel
 * (source `agent`). A call that parked in `confirm` reaches this transition only after an
 * approval fact, which is passed on so that nobody is asked twice.
 */
import { drafts, type FactDraft, type PendingCall } from '@a3s-code/effect';
import { markCallKey } from '../invoker/call-context.js';
import { callJournalFor } from '../invoker/call-journal.js';
import { appliedSkills } from '../invoker/live-governance.js';
import { recordSkillsApplied } from '../skills/skill-replay.js';
import type { RunEnv } from './run-env.js';
import { recordToolCallsUsed } from './run-tool-budget.js';

/**
 * Runs `tool:<turn>:<cycle>:<call_id>` (`key`) and returns its `tool.result`. `interrupted`: the call was
 * due when the run was resumed, so an earlier attempt may have run before the process died (its
 * change record then stands for that attempt too).
 */
export async function runTool(
  env: RunEnv,
  pending: PendingCall,
  key: string,
  interrupted = false,
): Promise<FactDraft[]> {
  const { call } = pending;
  env.stats.toolCalls++;
  const request = { id: call.id, name: call.name, args: call.args };
  markCallKey(request, key, callJournalFor(env.store, env.runId, key));
  // Calls run one at a time: the Skill restrictions applied while this one ran are its own.
  const skillsBefore = appliedSkills(env.invocation).length;
  const result = await env.invoker.invoke(request, env.invocation, 'agent', {
    ...(call.needs_confirmation ? { preconfirmed: { approved: true } } : {}),
    ...(interrupted ? { interrupted: true } : {}),
  });
  if (result.errorKind === 'permission_denied') env.stats.deniedCalls++;
  // The kernel made the tool's metadata JSON-safe (see `invoker/json-safe.ts`): no second round trip here.
  const metadata: Record<string, unknown> = { ...result.metadata, duration_ms: result.durationMs };
  if (result.errorKind !== undefined) metadata.error_kind = result.errorKind;
  if (result.permission !== undefined) metadata.permission = result.permission;
  recordToolCallsUsed(metadata, env.invocation.governance);
  recordSkillsApplied(metadata, appliedSkills(env.invocation).slice(skillsBefore));
  return [
    drafts.toolResult(pending, {
      ok: result.ok,
      output: result.output,
      exit_code: result.exitCode,
      metadata,
      at_ms: env.clock(),
    }),
  ];
}
