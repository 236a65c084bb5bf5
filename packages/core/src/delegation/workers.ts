/**
 * Background workers: child runs a tool pack starts from one of its tool calls and that outlive
 * the call (the vibe roster's workers). Each worker is a real run of the fact-log driver on its own
 * thread `<session-thread>.worker-<n>`, continued by each re-run, through the session's own
 * delegation machinery: the calling run's governance (approvals, deny rules, plan mode, tiers)
 * narrowed so that a worker never delegates, the session's invoker and provider budget. It stops
 * when the pack stops it, when the run that started it is cancelled, or when the session closes.
 * Its start, progress and end reach the host as `worker_*` events on the session's active run,
 * else on the session's host listeners. What the pack records with a run is written into the
 * worker's log (`run.started.worker`), so {@link WorkerPort.logs} lists workers after a crash.
 * A worker that may write or run commands is a change with unknown paths in the ledger of the run
 * that started it until its run ends; then its own changes take that place (see `SessionGate`).
 */
import { readFactLogFile } from '../store/log-file.js';
import { join } from 'node:path';
import { parseLog, type Fact } from '@a3s-code/effect';
import { callChainOf, invocationContextOf, noteUnknownChange } from '../invoker/call-context.js';
import { visibleTiers, type GovernanceSnapshot } from '../invoker/governance.js';
import type { JsonValue } from '../tools/json-schema.js';
import type { AgentDefinition } from './agent-definition.js';
import type { LedgerEntry } from '../gate/mutation-ledger.js';
import type { ChildAnnouncer, TaskOutcome } from './child-run.js';
import { childGovernance, delegatedFrom } from './child-governance.js';
import type { Delegator } from './delegator.js';
import { WorkerError } from './worker-error.js';
import type { WorkerLog, WorkerOutcome, WorkerPort, WorkerRunSpec } from './worker-port.js';

const WORKER_AGENT = 'worker';
const ID_RE = /^worker-([1-9]\d{0,8})$/;

function invalid(field: string, rule: string): never {
  throw new WorkerError('WORKER_INVALID', `${field}: ${rule}`, { field });
}

function checkSpec(spec: WorkerRunSpec): void {
  if (typeof spec.prompt !== 'string' || spec.prompt.trim() === '') invalid('prompt', 'must be a non-empty string');
  if (typeof spec.label !== 'string' || spec.label.trim() === '' || spec.label.length > 200)
    invalid('label', 'must be a string of 1 to 200 characters');
  if (typeof spec.instructions !== 'string') invalid('instructions', 'must be a string');
  if (spec.tier !== undefined && (typeof spec.tier !== 'string' || !/^[\w.-]{1,32}$/.test(spec.tier)))
    invalid('tier', 'must be 1 to 32 letters, digits, _ . -');
  if (spec.maxSteps !== undefined && !(Number.isInteger(spec.maxSteps) && spec.maxSteps >= 1 && spec.maxSteps <= 1000))
    invalid('maxSteps', 'must be an integer from 1 to 1000');
  if (spec.deniedTools !== undefined && !spec.deniedTools.every((t) => typeof t === 'string' && t !== ''))
    invalid('deniedTools', 'must be a list of tool names or permission rules');
}

/** The worker's governance: its caller's, narrowed like a sub-agent's, minus `denied`. */
function workerGovernance(parent: GovernanceSnapshot, agent: AgentDefinition, denied: readonly string[]) {
  const child = childGovernance(parent, agent);
  if (denied.length === 0) return child;
  return Object.freeze({
    ...child,
    restrictions: [...(child.restrictions ?? []), { name: 'worker', deniedTools: [...denied] }],
  });
}

/** What a log says about one worker. */
function fromFacts(workerId: string, thread: string, facts: readonly Fact[], live: boolean): WorkerLog | undefined {
  let meta: { label?: unknown; tier?: unknown; record?: unknown } | undefined;
  let runs = 0;
  let status: WorkerLog['status'] = 'running';
  let text = '';
  let error: WorkerLog['error'];
  let startedAtMs: number | null = null;
  let endedAtMs: number | undefined;
  let lastAtMs: number | null = null;
  for (const f of facts) {
    const p = f.payload as Record<string, unknown>;
    if (typeof p.at_ms === 'number') lastAtMs = Math.max(lastAtMs ?? 0, p.at_ms);
    if (f.type === 'run.started') {
      runs++;
      if (typeof p.worker === 'object' && p.worker !== null) meta = p.worker as typeof meta;
      status = 'running';
      text = '';
      error = undefined;
      endedAtMs = undefined;
      startedAtMs = typeof p.at_ms === 'number' ? p.at_ms : null;
    } else if (f.type === 'model.turn') {
      const d = p.decision as { text?: unknown } | undefined;
      if (typeof d?.text === 'string' && d.text !== '') text = d.text;
    } else if (f.type === 'run.ended') {
      const s = p.status;
      status = s === 'completed' || s === 'failed' ? s : 'cancelled';
      const e = p.error as { code?: unknown; message?: unknown } | undefined;
      if (typeof e?.code === 'string' && typeof e.message === 'string') error = { code: e.code, message: e.message };
      if (typeof p.at_ms === 'number') endedAtMs = p.at_ms;
    }
  }
  if (meta === undefined) return undefined;
  const record = typeof meta.record === 'object' && meta.record !== null ? meta.record : {};
  return {
    workerId,
    thread,
    label: typeof meta.label === 'string' ? meta.label : workerId,
    ...(typeof meta.tier === 'string' ? { tier: meta.tier } : {}),
    record: record as Readonly<Record<string, JsonValue>>,
    status,
    live,
    text,
    ...(error ? { error } : {}),
    runs,
    startedAtMs,
    lastAtMs,
    ...(endedAtMs === undefined ? {} : { endedAtMs }),
  };
}

function outcomeOf(workerId: string, o: TaskOutcome, stoppedBy: string | undefined): WorkerOutcome {
  return {
    workerId,
    thread: o.thread,
    status: o.status,
    text: o.text,
    ...(o.error ? { error: o.error } : {}),
    ...(o.status === 'cancelled' && stoppedBy !== undefined ? { stoppedBy } : {}),
    runId: o.run_id,
    steps: o.steps,
    toolCalls: o.tool_calls,
    usage: { inputTokens: o.usage.input_tokens, outputTokens: o.usage.output_tokens },
  };
}

/** A worker run's changes as entries of the starting run's ledger, under the tool that started it. */
function ledgerEntries(o: TaskOutcome, tool: string): LedgerEntry[] {
  return o.changes.map((c) => ({
    tool,
    path: c.path,
    digest: c.action === 'delete' || c.digest_after === null ? 'deleted' : c.digest_after,
  }));
}

/** The worker port of a session, over its delegator (created later in the session build). */
export function createWorkerPort(delegator: () => Delegator): WorkerPort {
  const live = new Map<string, Promise<WorkerOutcome>>();
  const started = new Set<number>();
  const known = (d: Delegator, n: number): boolean =>
    started.has(n) || d.memoryLog(d.workerThread(n)) !== undefined || d.recordedNumbers('worker').includes(n);
  return {
    start(ctx, spec) {
      const context = invocationContextOf(ctx);
      if (context === undefined)
        throw new WorkerError('WORKER_CONTEXT', 'a worker starts only from a tool call the session kernel runs');
      checkSpec(spec);
      const d = delegator();
      let ids: { readonly workerId: string; readonly thread: string };
      if (spec.workerId === undefined) ids = d.allocateWorker();
      else {
        const m = ID_RE.exec(spec.workerId);
        const n = m ? Number(m[1]) : 0;
        if (!m || !known(d, n))
          throw new WorkerError('WORKER_UNKNOWN', `no worker '${spec.workerId}' in this session`, {
            field: 'workerId',
          });
        ids = { workerId: spec.workerId, thread: d.workerThread(n) };
      }
      if (live.has(ids.workerId))
        throw new WorkerError('WORKER_BUSY', `worker '${ids.workerId}' is running; stop it or wait for it first`, {
          field: 'workerId',
        });
      started.add(Number(ID_RE.exec(ids.workerId)![1]));
      const kill = new AbortController();
      const runSignal = context.signal;
      const stoppedBy = (): string =>
        kill.signal.aborted
          ? String(kill.signal.reason)
          : runSignal.aborted
            ? 'the run that started it was cancelled'
            : 'the session closed';
      const base = { worker_id: ids.workerId, label: spec.label };
      const events = d.liveEvents;
      const announce: ChildAnnouncer = {
        start: () =>
          events.emit({
            kind: 'workerSpawned',
            payload: { ...base, ...(spec.tier === undefined ? {} : { tier: spec.tier }), thread: ids.thread },
          }),
        progress: (p) => events.emit({ kind: 'workerProgress', payload: { ...base, ...p } }),
        end: (o) => {
          if (o.status === 'cancelled')
            events.emit({ kind: 'workerKilled', payload: { ...base, reason: stoppedBy() } });
          else if (o.status === 'failed')
            events.emit({
              kind: 'workerFailed',
              payload: { ...base, error: o.error ?? { code: 'WORKER_FAILED', message: 'the worker failed' } },
            });
          else events.emit({ kind: 'workerFinished', payload: { ...base, status: o.status, text: o.text } });
        },
      };
      const agent: AgentDefinition = {
        name: WORKER_AGENT,
        description: 'a background worker',
        instructions: spec.instructions,
        source: 'worker',
      };
      const denied = spec.deniedTools ?? [];
      const outcome = d.runWorker(
        {
          agent,
          description: spec.label,
          prompt: spec.prompt,
          ...(spec.maxSteps === undefined ? {} : { maxSteps: spec.maxSteps }),
          ...(spec.model === undefined ? {} : { model: spec.model }),
        },
        {
          runId: context.runId,
          governance: delegatedFrom(context.governance, callChainOf(ctx)),
          events: context.events,
          signal: runSignal,
          ...(context.capabilities ? { capabilities: context.capabilities } : {}),
        },
        { taskId: ids.workerId, thread: ids.thread },
        {
          announce,
          signal: kill.signal,
          governance: (parent) => workerGovernance(parent, agent, denied),
          runStarted: {
            worker: {
              id: ids.workerId,
              label: spec.label,
              ...(spec.tier === undefined ? {} : { tier: spec.tier }),
              record: { ...(spec.record ?? {}) },
            },
          },
        },
      );
      // The worker may change files after this call returns: until its run ends, the calling run's
      // ledger has a change with unknown paths in its place, which its outcome then resolves into
      // the worker's own changes (a worker that can neither write nor run anything changes nothing).
      const tiers = visibleTiers(workerGovernance(context.governance, agent, denied));
      const pending = tiers.has('write') || tiers.has('exec') ? noteUnknownChange(ctx, ctx.toolName) : undefined;
      const gate = pending === undefined ? undefined : d.gateFor(context.runId);
      if (pending !== undefined) gate?.expectResolution(pending);
      const tool = ctx.toolName;
      const settled = outcome.then((o) => {
        if (pending !== undefined) gate?.resolveUnknown(pending, ledgerEntries(o, tool));
        return outcomeOf(ids.workerId, o, o.status === 'cancelled' ? stoppedBy() : undefined);
      });
      live.set(ids.workerId, settled);
      void settled.finally(() => live.delete(ids.workerId));
      return {
        ...ids,
        outcome: settled,
        stop: (reason) => {
          if (!kill.signal.aborted) kill.abort(reason);
        },
      };
    },
    async logs() {
      const d = delegator();
      const out: WorkerLog[] = [];
      const numbers = new Set([...d.recordedNumbers('worker'), ...started]);
      for (const n of [...numbers].sort((a, b) => a - b)) {
        const workerId = `worker-${n}`;
        const thread = d.workerThread(n);
        const memory = d.memoryLog(thread);
        let facts: readonly Fact[];
        if (memory !== undefined) facts = memory.log.facts;
        else {
          try {
            facts = parseLog(await readFactLogFile(join(d.logFolder, `${thread}.jsonl`))).facts;
          } catch {
            continue; // Not written yet, or unreadable: not listed.
          }
        }
        const log = fromFacts(workerId, thread, facts, live.has(workerId));
        if (log !== undefined) out.push(log);
      }
      return out;
    },
  };
}
