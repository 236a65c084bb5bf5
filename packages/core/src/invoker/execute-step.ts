/**
 * The execution steps of the pipeline: per-tool queue (honouring `maxParallelism`), timeout,
 * cancellation, middleware and the tool's own `execute`. A tool that ignores its signal cannot
 * hold the caller: the call settles as soon as the signal aborts and a late result is dropped.
 */
import { A3sError } from '@a3s-code/effect';
import { eventArgs } from '../events/bounded-value.js';
import { ResourceUnavailableError } from '../errors/resource-errors.js';
import { CancelledError, ToolExecutionError } from '../errors/tool-errors.js';
import type { OpenedResource, ResourceCapability } from '../tools/tool-resource.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import { TOOL_OUTPUT_DELTA_MAX_CHARS, type ToolContext } from '../tools/tool-context.js';
import type { ToolMiddlewareNext } from '../tools/tool-middleware.js';
import { isModelSide, toolSetOf, type CallFrame, type Kernel } from './kernel.js';
import { callCapabilities } from './call-capabilities.js';
import { bindCall, type CallChain } from './call-context.js';
import { CallSignal, type AbortState } from './call-signal.js';
import type { ScopedInvokers } from './scoped-invoker.js';
import { isTrustedOrchestrator } from './trust.js';
import { guardExec, holdsCommands, withApartHold } from './exec-guard.js';
import { unaskedCommandNote, unaskedHold } from './protected-writes.js';
import type { HoldAsk } from './permission-step.js';
import { guardReads } from './read-guard.js';
import { guardWrites } from './write-guard.js';
import { ruleHostsFor, ruleRefusingFor } from './rule-refusing.js';

/** What execution needs to know about the call. */
export interface ExecuteCall {
  readonly id: string;
  readonly tool: Tool;
  readonly args: unknown;
  readonly frame: CallFrame;
  /** Marks the active-call entry as running. */
  readonly onRunning: () => void;
  /** The scoped invokers of this call, bound to its signal (made when the tool first reaches for them). */
  readonly nest: (owner: CallSignal) => ScopedInvokers;
  /** Hold the files the call writes and reads to the policy's path ask rules (it was not confirmed). */
  readonly holdAsk?: HoldAsk;
}

function validResult(name: string, value: unknown): ToolResult {
  const r = value as ToolResult | undefined;
  if (typeof r !== 'object' || r === null)
    throw new ToolExecutionError(name, new TypeError('execute must resolve to a ToolResult object'));
  if (typeof r.output !== 'string')
    throw new ToolExecutionError(name, new TypeError('ToolResult.output must be a string'));
  if (!Number.isInteger(r.exitCode))
    throw new ToolExecutionError(name, new TypeError('ToolResult.exitCode must be an integer'));
  if (r.metadata !== undefined && (typeof r.metadata !== 'object' || r.metadata === null)) {
    throw new ToolExecutionError(name, new TypeError('ToolResult.metadata must be an object'));
  }
  return r;
}

/** Turns whatever a tool threw into a typed error (the abort reason wins when the call was aborted). */
export function toCallError(name: string, error: unknown, signal: AbortState): A3sError {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return A3sError.isInstance(reason) ? reason : new CancelledError(`call of '${name}'`, reason);
  }
  return A3sError.isInstance(error) ? error : new ToolExecutionError(name, error);
}

/**
 * How long a write-tier call stopped by its signal (a cancellation, its timeout) is still waited
 * for: a write whose data was already on its way lands (or is given up at its last check), and
 * the result recorded must say which, never "cancelled" for a file that was written.
 */
const WRITE_GRACE_MS = 1_000;

/**
 * The call's value, or the signal's error once it aborts. With `graceMs`, a call stopped by the
 * signal is waited for that long more: one that still completes gives its own result.
 */
async function settled(linked: CallSignal, run: Promise<ToolResult>, graceMs: number): Promise<ToolResult> {
  try {
    return await linked.settle(run);
  } catch (stopped) {
    if (graceMs === 0 || !linked.aborted) throw stopped;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      run.then(
        (value) => ({ value }),
        () => undefined,
      ),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (late === undefined) throw stopped;
    return late.value;
  }
}

/** Queues, runs and settles one call. Throws a typed error on failure. */
export async function executeCall(k: Kernel, call: ExecuteCall): Promise<ToolResult> {
  const { tool, frame } = call;
  const caps = callCapabilities(tool, call.args);
  // A call nested inside a call of the same tool must not wait for a slot its ancestor holds.
  const release = frame.stack.includes(tool.name)
    ? undefined
    : await k.queue.acquire(tool.name, Math.min(caps.maxParallelism, k.maxParallelism), frame.signal);
  const linked = new CallSignal(frame.signal, k.sessionSignal, {
    ms: tool.timeoutMs ?? k.defaultTimeoutMs,
    toolName: tool.name,
  });
  // The scoped invokers are made when the tool (or middleware) first reaches for them; once the
  // call has ended, ones made late are revoked at once.
  let scoped: ScopedInvokers | undefined;
  let ended = false;
  const scopedOf = (): ScopedInvokers => {
    if (scoped === undefined) {
      scoped = call.nest(linked);
      if (ended) scoped.revoke();
    }
    return scoped;
  };
  try {
    if (linked.aborted) throw toCallError(tool.name, undefined, linked);
    // Lazy resources open on the first call of a tool that requires them (once, shared).
    const needed = resourceRequirements(tool);
    if (needed.length > 0) await linked.settle(Promise.all(needed.map((c) => resourceOf(k, tool, c))));
    call.onRunning();
    const emitOutput = (delta: string, stream?: 'stdout' | 'stderr'): void => {
      if (linked.aborted || typeof delta !== 'string' || delta.length === 0) return;
      const safe = k.security.sanitizeOutput(delta, { toolName: tool.name, callId: call.id });
      const cut = safe.length > TOOL_OUTPUT_DELTA_MAX_CHARS;
      const text = cut ? `${safe.slice(0, TOOL_OUTPUT_DELTA_MAX_CHARS)}… [${safe.length} chars]` : safe;
      const from = stream === 'stdout' || stream === 'stderr' ? { stream } : {};
      frame.context.events.emit({
        kind: 'toolOutputDelta',
        payload: { id: call.id, name: tool.name, delta: text, ...from, ...(cut ? { delta_truncated: true } : {}) },
      });
    };
    const refusing = ruleRefusingFor(k, tool, call.args, frame);
    const hosts = refusing === undefined ? undefined : ruleHostsFor(k, tool);
    const ctx: ToolContext = {
      callId: call.id,
      toolName: tool.name,
      source: frame.source,
      runId: frame.context.runId,
      sessionId: frame.context.sessionId,
      get signal(): AbortSignal {
        return linked.signal;
      },
      depth: frame.depth,
      workspace: workspaceOf(k, call),
      artifacts: k.artifacts,
      get invoker(): ToolContext['invoker'] {
        return scopedOf().invoker;
      },
      emitOutput,
      resource: <H extends OpenedResource>(capability: ResourceCapability) => resourceOf<H>(k, tool, capability),
      ...(refusing === undefined ? {} : { ruleRefusing: refusing }),
      ...(hosts === undefined ? {} : { ruleHosts: hosts }),
    };
    bindCall(ctx, frame.context, frame.changes, callChain(k, frame, tool), frame.attempt);
    const run = runWithMiddleware(k, tool, call.args, ctx, scopedOf);
    const value = await settled(linked, run, tool.tier === 'write' ? WRITE_GRACE_MS : 0);
    return validResult(tool.name, value);
  } catch (error) {
    throw toCallError(tool.name, error, linked);
  } finally {
    ended = true;
    scoped?.revoke();
    linked.dispose();
    release?.();
  }
}

/**
 * The workspace of a model-side call: its writes held to the policy's path deny rules for writes,
 * its reads, listings and searches held to those for reads (unless the tool is of the `exec`
 * tier, whose commands open files themselves), and its commands run with the files those rules
 * cover out of reach; a call allowed without a confirmation is held to the path ask rules as well.
 */
function workspaceOf(k: Kernel, call: ExecuteCall): ToolContext['workspace'] {
  const { frame, tool } = call;
  const p = k.policy;
  const held = call.holdAsk ?? false;
  const unasked = held === true || held === 'allow';
  // A call allowed unasked is also held to the policy where a symbolic link it writes through leads.
  const askWrites = held !== false && (p.hasWriteAskRules || held === 'allow');
  const askReads =
    held !== false && (p.hasReadAskRules || (held === 'allow' && p.hasReadAllowRules)) && tool.tier !== 'exec';
  const reads = (p.hasReadDenyRules && tool.tier !== 'exec') || askReads;
  // A command a rule allows unasked is also kept from git's and the agent's configuration.
  const exec = k.workspace.exec;
  const unaskedExec = exec !== undefined && held === 'allow' && tool.tier === 'exec';
  const hold = unaskedExec ? unaskedHold(k.workspace.root, exec, p) : undefined;
  const cp = hold?.policy ?? p;
  const commands = exec !== undefined && (unaskedExec || holdsCommands(cp, unasked));
  // A process a tool starts itself may still be kept apart from the host by the workspace.
  const plain = withApartHold(k.workspace);
  if (!isModelSide(frame.source) || (!p.hasWriteDenyRules && !askWrites && !reads && !commands)) return plain;
  const denied = (path: string, rule: string): void =>
    frame.context.events.emit({
      kind: 'permissionDenied',
      payload: { tool_id: call.id, tool_name: tool.name, ...eventArgs({ path }), reason: rule, denied_by: 'rule' },
    });
  const base = !commands
    ? plain
    : hold !== undefined
      ? guardExec(
          k.workspace,
          cp,
          tool.name,
          unasked,
          unaskedCommandNote(p.writeAskRules, hold.turnedOff),
          hold.configs,
          hold.env,
          hold.watch,
        )
      : guardExec(k.workspace, cp, tool.name, unasked);
  const written = guardWrites(base, p, tool.name, denied, askWrites ? held : false);
  const readHold = held === 'allow' && !p.hasReadAllowRules ? true : held;
  if (reads) return guardReads(written, p, tool.name, denied, askReads ? readHold : false);
  if (tool.tier !== 'exec' || !(p.hasReadDenyRules || p.hasReadAskRules)) return written;
  // The files the read rules cover are kept from an exec-tier tool's processes; what the tool
  // learns of a file itself (a debugger's look at a source file) is judged by the same rules.
  const judged = guardReads(written, p, tool.name, denied, p.hasReadAskRules);
  return judged.readDenied === undefined ? written : { ...written, readDenied: judged.readDenied };
}

/** The calls a call of `tool` under `frame` runs inside, itself included. */
function callChain(k: Kernel, frame: CallFrame, tool: Tool): CallChain {
  const stack = [...frame.stack, tool.name];
  const tools = toolSetOf(k, frame);
  const nonReentrant = stack.filter(
    (name, i) => stack.indexOf(name) === i && (name === tool.name ? tool : tools.get(name))?.reentrant === false,
  );
  return { stack, nonReentrant };
}

function runWithMiddleware(
  k: Kernel,
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
  scopedOf: () => ScopedInvokers,
): Promise<ToolResult> {
  // Trusted orchestrators are never wrapped: middleware could otherwise choose the children
  // that run with host trust.
  const middleware = isTrustedOrchestrator(tool) ? [] : k.registry.middlewareFor(tool.name);
  if (middleware.length === 0) return Promise.resolve().then(() => tool.execute(args, ctx));
  const scoped = scopedOf();
  const mwCtx: ToolContext =
    scoped.governedInvoker === scoped.invoker ? ctx : { ...ctx, invoker: scoped.governedInvoker };
  let next: ToolMiddlewareNext = async (a) => tool.execute(a, ctx);
  for (let i = middleware.length - 1; i >= 0; i--) {
    const mw = middleware[i]!;
    const inner = next;
    const own = mw.requires ?? [];
    const mwCtxOwn: ToolContext =
      own.length === 0
        ? mwCtx
        : {
            ...mwCtx,
            resource: <H extends OpenedResource>(capability: ResourceCapability) =>
              own.includes(capability) && k.resources !== undefined
                ? (k.resources.acquire(capability) as Promise<H>)
                : mwCtx.resource<H>(capability),
          };
    next = async (a) => mw.wrap({ tool, args: a, ctx: mwCtxOwn }, inner);
  }
  return next(args);
}

function resourceRequirements(tool: Tool): ResourceCapability[] {
  return (tool.requires ?? []).filter((c): c is ResourceCapability => c.startsWith('resource.'));
}

function resourceOf<H extends OpenedResource>(k: Kernel, tool: Tool, capability: ResourceCapability): Promise<H> {
  if (!(tool.requires ?? []).includes(capability))
    return Promise.reject(new ResourceUnavailableError(capability, `tool '${tool.name}' does not require it`));
  if (k.resources === undefined)
    return Promise.reject(new ResourceUnavailableError(capability, 'this invoker has no session resources'));
  return k.resources.acquire(capability) as Promise<H>;
}
