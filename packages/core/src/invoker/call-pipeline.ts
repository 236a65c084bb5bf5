/**
 * The one invocation kernel. Every call of every source runs these steps in
 * this order: lookup → cancellation check → argument validation (before anything else)
 * → recursion guard → skill restrictions → permission projection and confirmation (model-side
 * sources only) → pre-hooks → budget (before any side effect) → queue, timeout, cancellation →
 * execute (with middleware) → post-hooks → output sanitisation → artifact cap → change record
 * (nested calls report to their top-level call, which carries the whole record) → `tool_end`.
 *
 * The recursion guard runs before the queue (not after it): a `program` calling `program` must
 * fail at once instead of waiting for a slot its own ancestor holds.
 */
import { A3sError } from '@a3s-code/effect';
import {
  BudgetExhaustedError,
  RecursionLimitError,
  ToolBlockedError,
  ToolExecutionError,
  ToolNotAllowedError,
  ToolNotFoundError,
} from '../errors/tool-errors.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import { shownCommands } from './shown-commands.js';
import { nullEventSink } from '../events/agent-event.js';
import { boundedValue, EVENT_METADATA_MAX_CHARS, eventArgs } from '../events/bounded-value.js';
import { capOutput } from './artifact-store.js';
import { detachedArgs } from './json-args.js';
import { jsonSafe } from './json-safe.js';
import { failedChanges, mayChange, resultChanges, withChangeRecord } from './change-collector.js';
import type { ChangeRecordEntry } from '../gate/change-record.js';
import type { CallSignal } from './call-signal.js';
import { executeCall, toCallError } from './execute-step.js';
import { checkPostHookResult, checkPreHookDecision, type HookCall } from './hooks.js';
import type {
  ActiveToolCall,
  InvocationSource,
  PermissionOutcome,
  ToolCallRequest,
  ToolErrorKind,
  ToolInvocationResult,
} from './invocation-types.js';
import { toolSetOf, type CallFrame, type Kernel } from './kernel.js';
import { authorize } from './permission-step.js';
import { createScopedInvoker, reachableTool, type NestedRunner } from './scoped-invoker.js';
import { recordAttempt, recordedAttempt } from './top-level-journal.js';
import { isTrustedOrchestrator } from './trust.js';

const KIND_BY_CODE: Readonly<Record<string, ToolErrorKind>> = {
  INVALID_TOOL_ARGS: 'invalid_args',
  TOOL_NOT_FOUND: 'not_found',
  PERMISSION_DENIED: 'permission_denied',
  TOOL_BLOCKED: 'blocked',
  BUDGET_EXHAUSTED: 'budget_exhausted',
  CANCELLED: 'cancelled',
  TOOL_TIMEOUT: 'timeout',
  RECURSION_LIMIT: 'recursion_limit',
  TOOL_NOT_ALLOWED: 'blocked',
};

/** The error kind of a typed error. */
export function errorKindOf(error: A3sError): ToolErrorKind {
  return KIND_BY_CODE[error.code] ?? 'execution';
}

/** A failed result (no event): output is the error's message, sanitised. */
export function failedResult(
  k: Kernel,
  call: { readonly id: string; readonly name: string; readonly source: InvocationSource },
  kind: ToolErrorKind,
  error: A3sError,
  startedAt: number,
  permission?: PermissionOutcome,
): ToolInvocationResult {
  return {
    id: call.id,
    name: call.name,
    source: call.source,
    ok: false,
    output: k.security.sanitizeOutput(error.message, { toolName: call.name, callId: call.id }),
    exitCode: 1,
    metadata: { error_code: error.code },
    errorKind: kind,
    error,
    ...(permission === undefined ? {} : { permission }),
    durationMs: k.clock() - startedAt,
  };
}

/** `changes`: what the call changed, when it started running. */
type Governed =
  | {
      readonly ok: true;
      readonly result: ToolResult;
      readonly permission: PermissionOutcome;
      readonly changes: readonly ChangeRecordEntry[];
      /** The tool's tier may change the workspace (an empty record then says the call did not). */
      readonly byTier: boolean;
    }
  | {
      readonly ok: false;
      readonly error: A3sError;
      readonly permission?: PermissionOutcome;
      readonly changes?: readonly ChangeRecordEntry[];
    };

/** The refusal of a call of `name` when its pinned generation has the tool but the session no longer does. */
function withdrawnSince(k: Kernel, frame: CallFrame, name: string): ToolNotFoundError | undefined {
  const tools = toolSetOf(k, frame);
  const pinned = frame.context.capabilities?.generation.generation;
  if (tools === k.registry || pinned === undefined || k.registry.get(name) !== undefined) return undefined;
  const requires = k.registry.pending().find((p) => p.name === name)?.missing ?? [];
  const available = tools
    .toolNames()
    .filter((n) => k.registry.get(n) !== undefined && reachableTool(k, frame, frame.source, n) !== undefined);
  return new ToolNotFoundError(name, available, pinned, { requires });
}

/** Tracks a nested call in its top-level call's change record. */
type Tracker = { running(may: boolean): void } | undefined;

/**
 * The frame the calls nested in a call run under: a call a person confirmed passes on the shell
 * commands its confirmation showed them (see `shown-commands.ts`, `CallFrame.confirmedCommands`).
 */
function confirmedFrame(frame: CallFrame, tool: Tool, args: unknown, permission: PermissionOutcome): CallFrame {
  if (permission !== 'ask_approved') return frame;
  const shown = shownCommands(tool, args);
  if (shown.length === 0) return frame;
  return { ...frame, confirmedCommands: new Set([...(frame.confirmedCommands ?? []), ...shown]) };
}

async function govern(
  k: Kernel,
  frame: CallFrame,
  request: ToolCallRequest,
  entry: { state: ActiveToolCall['state'] },
  tracker: Tracker,
): Promise<Governed> {
  const { source, context } = frame;
  const name = request.name;
  const tool = reachableTool(k, frame, source, name);
  if (tool === undefined) {
    const tools = toolSetOf(k, frame);
    const registered = tools.get(name);
    // A registered tool hidden by tier is a denial, so hosts see why; an unknown one is not found.
    if (registered !== undefined) {
      const auth = await authorize(k, frame, request.id, registered, request.args);
      if (!auth.ok) return { ok: false, error: auth.error, permission: 'deny' };
    }
    const available = tools.toolNames().filter((n) => reachableTool(k, frame, source, n) !== undefined);
    // A tool published after the caller's generation exists, but not for this caller.
    const later = tools !== k.registry && k.registry.get(name) !== undefined;
    const pinned = frame.context.capabilities?.generation.generation;
    return { ok: false, error: new ToolNotFoundError(String(name), available, later ? pinned : undefined) };
  }
  if (frame.signal.aborted || k.sessionSignal.aborted) {
    return { ok: false, error: toCallError(name, undefined, frame.signal.aborted ? frame.signal : k.sessionSignal) };
  }
  // In the caller's generation, but the session withdrew it since (its resource was closed, its
  // mode turned off, its pack or server removed): refused as such, before anything else happens.
  const withdrawn = withdrawnSince(k, frame, name);
  if (withdrawn !== undefined) return { ok: false, error: withdrawn };
  // Held to a list (a program's allowed_tools): refused before its arguments are even looked at.
  const outside = frame.allowLists?.find((list) => !list.tools.has(name));
  if (outside !== undefined)
    return {
      ok: false,
      error: new ToolNotAllowedError(
        name,
        [...outside.tools],
        outside.holder,
        `a call nested in a ${outside.holder} call (call stack: ${frame.stack.join(' > ')}) is held to the same list`,
      ),
    };
  // From here on the call works on its own copy: whatever an approver, a hook or the tool does to
  // the object it is given, the caller's object (and the fact recording the model's call) stays.
  const checked = k.validator.checkCopy(tool, request.args);
  if (!checked.ok) return { ok: false, error: checked.error };
  let args = checked.args;
  const hookCall = (a: unknown): HookCall => ({
    id: request.id,
    name,
    tier: tool.tier,
    args: detachedArgs(a),
    source,
    depth: frame.depth,
    runId: context.runId,
    sessionId: context.sessionId,
  });
  // The re-run of a call a crash interrupted: arguments that fail validation failed it then too;
  // past this point the attempt may have run, whatever this one does (a refusal now undoes nothing);
  // one journaled as returned is reported, not run (nor asked about) again.
  if (frame.interrupted === true && frame.depth === 0) {
    const done = await recordedAttempt(frame, tool, request);
    if (done) return afterTool(k, tool, hookCall(args), done.result, done.permission ?? 'trusted', done.changes);
    frame.changes.interrupted(request.id, name, mayChange(tool, args));
  }

  if (frame.depth > k.maxDepth)
    return {
      ok: false,
      error: new RecursionLimitError(
        name,
        `nesting depth ${frame.depth} exceeds the limit of ${k.maxDepth}`,
        frame.stack,
      ),
    };
  if (tool.reentrant === false && frame.stack.includes(name)) {
    return {
      ok: false,
      error: new RecursionLimitError(name, `'${name}' cannot call itself, directly or indirectly`, frame.stack),
    };
  }

  const auth = await authorize(k, frame, request.id, tool, args);
  if (!auth.ok) return { ok: false, error: auth.error, permission: 'deny' };
  const permission = auth.permission;

  for (const hook of k.hooks.pre) {
    const decision = checkPreHookDecision(hook.name, await hook.before(hookCall(args)));
    if (decision === undefined || decision.action === 'continue') continue;
    if (decision.action === 'block')
      return { ok: false, error: new ToolBlockedError(name, hook.name, decision.reason), permission };
    const reinvalid = k.validator.check(tool, decision.args);
    if (reinvalid !== undefined) return { ok: false, error: reinvalid, permission };
    args = detachedArgs(decision.args);
  }

  const budget = context.governance.budget?.reserve({ toolName: name, source });
  if (budget !== undefined) {
    if (!budget.ok)
      return { ok: false, error: new BudgetExhaustedError(budget.budget, budget.used, budget.limit), permission };
    if (budget.threshold !== undefined)
      context.events.emit({ kind: 'budgetThresholdHit', payload: { ...budget.threshold } });
  }

  let result: ToolResult;
  let ran = false;
  const onRunning = (): void => {
    tracker?.running(mayChange(tool, args));
    entry.state = 'running';
    ran = true;
  };
  try {
    const parent = confirmedFrame(frame, tool, args, permission);
    const nest = (owner: CallSignal) =>
      createScopedInvoker(k, NESTED, parent, tool, request.id, owner, isTrustedOrchestrator(tool));
    result = await executeCall(k, {
      id: request.id,
      tool,
      args,
      frame,
      onRunning,
      nest,
      ...(auth.holdAsk === undefined || auth.holdAsk === false ? {} : { holdAsk: auth.holdAsk }),
    });
  } catch (e) {
    // The call was permitted; a failure while it ran (timeout, cancellation, a throw) keeps that record.
    const error = A3sError.isInstance(e) ? e : new ToolExecutionError(name, e);
    return { ok: false, error, permission, changes: ran ? failedChanges(request.id, tool, error, args) : [] };
  }
  // The tool's own report is what it changed, whatever a post-hook makes of the result.
  const changes = resultChanges(request.id, tool, result, args);
  await recordAttempt(frame, tool, request, result, permission, changes);
  return afterTool(k, tool, hookCall(args), result, permission, changes);
}

/** The post-hooks of a call whose tool returned `result`, and the call's outcome. */
async function afterTool(
  k: Kernel,
  tool: Tool,
  call: HookCall,
  returned: ToolResult,
  permission: PermissionOutcome,
  changes: readonly ChangeRecordEntry[],
): Promise<Governed> {
  let result = returned;
  try {
    for (const hook of k.hooks.post) {
      const replaced = checkPostHookResult(hook.name, await hook.after(call, result));
      if (replaced !== undefined) result = replaced;
    }
  } catch (e) {
    return { ok: false, error: A3sError.isInstance(e) ? e : new ToolExecutionError(tool.name, e), permission, changes };
  }
  return { ok: true, result, permission, changes, byTier: mayChange(tool) };
}

/** Runs one call through the whole kernel. Always resolves. */
export async function runCall(k: Kernel, frame: CallFrame, request: ToolCallRequest): Promise<ToolInvocationResult> {
  const startedAt = k.clock();
  const call = { id: request.id, name: String(request.name), source: frame.source };
  const token = {};
  const entry = {
    id: call.id,
    name: call.name,
    source: frame.source,
    state: 'queued' as ActiveToolCall['state'],
    startedAtMs: startedAt,
    depth: frame.depth,
  };
  k.active.set(token, entry);
  const events = frame.context.events;
  // A sink that drops everything (host calls outside a run) gets no payloads built for it.
  const quiet = events === nullEventSink;
  if (!quiet)
    events.emit({
      kind: 'toolStart',
      payload: { id: call.id, name: call.name, ...eventArgs(request.args), source: frame.source, depth: frame.depth },
    });
  const tracker = frame.depth > 0 ? frame.changes.track(call.id, call.name) : undefined;
  // A nested call of a top-level call re-run after a crash: its journaled end, if it had one.
  const attempt = tracker === undefined ? undefined : frame.attempt;
  const replay =
    attempt?.interrupted === true ? await attempt.journal?.recorded(attempt.key, call.name, request.args) : undefined;
  let journaled = false;
  let changes: readonly ChangeRecordEntry[] = [];
  let byTier = false;
  let outcome: ToolInvocationResult;
  try {
    if (replay !== undefined) {
      changes = replay.changes;
      outcome = { ...replay.result, metadata: { ...replay.result.metadata, recovered: true } };
    } else outcome = await throughKernel();
  } finally {
    k.active.delete(token);
    tracker?.settle(changes);
  }
  /** Governs and runs the call (every step of the kernel). */
  async function throughKernel(): Promise<ToolInvocationResult> {
    const governed = await govern(k, frame, request, entry, tracker).catch(
      (e: unknown): Governed => ({
        ok: false,
        error: A3sError.isInstance(e) ? e : new ToolExecutionError(call.name, e),
      }),
    );
    changes = governed.changes ?? [];
    if (governed.ok) {
      // A call that may change something and ended with a result is journaled once its record is whole.
      journaled = governed.byTier;
      byTier = governed.byTier && governed.result.exitCode === 0;
      const r = governed.result;
      const safe = k.security.sanitizeOutput(r.output, { toolName: call.name, callId: call.id });
      // Most outputs are well under the cap: no artifact, and no extra turn of the event loop's queue.
      const capped =
        safe.length <= k.outputCap.maxOutputBytes / 3
          ? { output: safe, artifact: undefined }
          : await capOutput(safe, k.artifacts, k.outputCap, { toolName: call.name, callId: call.id });
      const metadata =
        capped.artifact === undefined
          ? (r.metadata ?? {})
          : { ...jsonSafe(r.metadata ?? {}), artifact: capped.artifact };
      return {
        id: call.id,
        name: call.name,
        source: frame.source,
        ok: r.exitCode === 0,
        output: capped.output,
        exitCode: r.exitCode,
        metadata,
        ...(r.exitCode === 0 ? {} : { errorKind: 'tool_failed' as const }),
        permission: governed.permission,
        durationMs: k.clock() - startedAt,
      };
    }
    return failedResult(k, call, errorKindOf(governed.error), governed.error, startedAt, governed.permission);
  }
  // Only the kernel writes the change record: nested calls report to their top-level call's
  // collector, and the top-level result carries the whole record.
  const safeMetadata = jsonSafe(outcome.metadata);
  outcome = {
    ...outcome,
    metadata: withChangeRecord(
      k.security.sanitizeMetadata?.(safeMetadata, { toolName: call.name, callId: call.id }) ?? safeMetadata,
      tracker ? undefined : [...changes, ...frame.changes.seal()],
      byTier,
    ),
  };
  // Journaled before the caller sees the result: a crash after that finds it in a re-run.
  if (journaled) await attempt?.journal?.record(attempt.key, call.name, request.args, outcome, changes);
  if (quiet) return outcome;
  const metadata = boundedValue(outcome.metadata, EVENT_METADATA_MAX_CHARS);
  events.emit({
    kind: 'toolEnd',
    payload: {
      id: outcome.id,
      name: outcome.name,
      output: outcome.output,
      exit_code: outcome.exitCode,
      metadata: metadata.value as Readonly<Record<string, unknown>>,
      ...(metadata.truncated ? { metadata_truncated: true } : {}),
      error_kind: outcome.errorKind ?? null,
      source: outcome.source,
      duration_ms: outcome.durationMs,
    },
  });
  return outcome;
}

/** Nested calls run through this same pipeline. */
const NESTED: NestedRunner = { runCall, failedResult };
