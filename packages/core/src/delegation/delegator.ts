/**
 * The delegation state of one session: task numbering (`<thread>.task-<n>`, continuing past the
 * logs already on disk), the children of each run (so a run's terminal state waits for them),
 * background tasks and their results, and the task records saved in snapshots.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { nullEventSink, type EventSink } from '../events/agent-event.js';
import type { SessionGate } from '../gate/session-gate.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import { linkSignals } from '../invoker/link-signals.js';
import type { SubagentTaskSnapshot } from '../session/snapshot-types.js';
import type { AgentDefinition } from './agent-definition.js';
import type { DelegationSettings } from './delegation-options.js';
import { childGovernance } from './child-governance.js';
import { findDelegated, recordedBackgroundTask, taskRecord } from './child-resume.js';
import type { FactStore } from '../store/fact-store.js';
import { MemoryFactStore } from '../store/memory-fact-store.js';
import { runChild, type ChildAnnouncer, type DelegationHost, type TaskOutcome, type TaskRequest } from './child-run.js';
import type { JsonValue } from '../tools/json-schema.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';

/** Where a task is started from: the caller's governance, event sink and signals. */
export interface TaskOrigin {
  readonly runId: string;
  readonly governance: GovernanceSnapshot;
  readonly events: EventSink;
  /** Ends the task (the calling tool call's signal for a foreground task). */
  readonly signal: AbortSignal;
  /** The caller's capability scope: the task runs in a child scope of it (same generation, narrower permissions). */
  readonly capabilities?: CapabilityScope;
  /**
   * Where the task's path attachments are read: the calling tool call's workspace, held to the
   * read rules (deny and ask) as any read of that call is. Default: the session's workspace.
   */
  readonly attachmentsFrom?: WorkspaceServices;
  /**
   * Where the calling call stands in its run's log (the same in every attempt of it), and
   * whether it is the re-run of an attempt a crash interrupted: the task's child records the
   * key, so the re-run continues the child that attempt started instead of starting another.
   */
  readonly attempt?: { readonly key: string; readonly interrupted: boolean };
}

/**
 * A task's id and thread; `resume` when the thread holds a child started before (by an
 * interrupted attempt of the calling call: continued; `'report'`: only its end is reported).
 */
export interface TaskIds {
  readonly taskId: string;
  readonly thread: string;
  readonly resume?: boolean | 'report';
}

/** How a background worker run differs from a task: its announcements, its log record, its governance. */
export interface WorkerRunOptions {
  readonly announce: ChildAnnouncer;
  readonly runStarted: Readonly<Record<string, JsonValue>>;
  /** Restrictions the worker adds to its caller's governance. */
  readonly governance: (parent: GovernanceSnapshot) => GovernanceSnapshot;
  /** Stops only this worker (a kill). */
  readonly signal: AbortSignal;
}

interface Background {
  readonly agent: string;
  readonly promise: Promise<TaskOutcome>;
  outcome?: TaskOutcome;
  /** Set once the task's run has settled, however it ended. */
  settled?: boolean;
}

/**
 * A task's governance (the caller's narrowed by the agent) and its capability scope: a subtask
 * of the caller's scope, sharing its generation. Throws `CAPABILITY_SCOPE_WIDENED` if the
 * governance would widen the caller's.
 */
function childScope(
  origin: TaskOrigin,
  request: TaskRequest,
  taskId: string,
): { readonly governance: GovernanceSnapshot; readonly scope?: CapabilityScope } {
  const governance = childGovernance(origin.governance, request.agent);
  const scope = origin.capabilities?.subtask(taskId, governance);
  return scope === undefined ? { governance } : { governance, scope };
}

/** The delegation state of one session. */
export class Delegator {
  readonly #host: DelegationHost;
  readonly #thread: string;
  readonly #next = new Map<'task' | 'worker', number>();
  /** Memory logs of worker threads (`persistence: 'memory'`): a worker re-run continues its log. */
  readonly #memoryLogs = new Map<string, MemoryFactStore>();
  #route: () => EventSink = () => nullEventSink;
  readonly #children = new Map<string, Set<Promise<unknown>>>();
  readonly #background = new Map<string, Background>();
  readonly #records: SubagentTaskSnapshot[] = [];
  readonly #close = new AbortController();

  constructor(
    host: DelegationHost,
    /** The agents tasks can name. */
    readonly agents: ReadonlyMap<string, AgentDefinition>,
    /** The session's delegation settings. */
    readonly settings: DelegationSettings,
  ) {
    this.#host = host;
    this.#thread = threadIdFor(host.config.sessionId);
  }

  /** Allocates the next task id and its fact-log thread. */
  allocate(): { readonly taskId: string; readonly thread: string } {
    const n = this.#allocate('task');
    return { taskId: `task-${n}`, thread: `${this.#thread}.task-${n}` };
  }

  /** Allocates the next worker id (`worker-<n>`) and its fact-log thread. */
  allocateWorker(): { readonly workerId: string; readonly thread: string } {
    const n = this.#allocate('worker');
    return { workerId: `worker-${n}`, thread: this.workerThread(n) };
  }

  /** The fact-log thread of worker number `n`. */
  workerThread(n: number): string {
    return `${this.#thread}.worker-${n}`;
  }

  /** The numbers of the `kind` threads of this session on disk (earlier processes included). */
  recordedNumbers(kind: 'task' | 'worker'): number[] {
    const found: number[] = [];
    if (this.#host.config.persistence !== 'file') return found;
    const prefix = `${this.#thread}.${kind}-`;
    try {
      for (const f of readdirSync(this.logFolder)) {
        const m = f.startsWith(prefix) ? /^(\d+)\.jsonl$/.exec(f.slice(prefix.length)) : null;
        if (m) found.push(Number(m[1]));
      }
    } catch {
      // No log folder yet.
    }
    return found.sort((a, b) => a - b);
  }

  /** The folder of the session's fact logs. */
  get logFolder(): string {
    return join(this.#host.config.dir, '.a3s', 'effect-log');
  }

  /** The memory log of a worker thread, when the session keeps its logs in memory. */
  memoryLog(thread: string): MemoryFactStore | undefined {
    return this.#memoryLogs.get(thread);
  }

  /** The gate that decides run `runId` (a child run's own, while it is going), when the session has one. */
  gateFor(runId: string): SessionGate | undefined {
    return this.#host.gate?.forRun(runId);
  }

  /** Where events of work that outlives its run go (set by the session: its active run, else its host listeners). */
  routeEvents(route: () => EventSink): void {
    this.#route = route;
  }

  /** A sink that emits to wherever {@link routeEvents} points at the time of each event. */
  readonly liveEvents: EventSink = { emit: (event) => this.#route().emit(event) };

  #allocate(kind: 'task' | 'worker'): number {
    const next = this.#next.get(kind) ?? Math.max(0, ...this.recordedNumbers(kind)) + 1;
    this.#next.set(kind, next + 1);
    return next;
  }

  /**
   * The ids of the task `origin` starts: on the re-run of a call a crash interrupted, the thread of
   * the child its earlier attempt started, if that child's log is on disk (`resume`); else new ones.
   */
  childFor(origin: TaskOrigin): TaskIds {
    const attempt = origin.attempt;
    if (attempt?.interrupted === true && this.#host.config.persistence === 'file') {
      const by = { run_id: origin.runId, call: attempt.key };
      const n = findDelegated(this.logFolder, this.#thread, this.recordedNumbers('task'), by);
      if (n !== undefined) return { taskId: `task-${n}`, thread: `${this.#thread}.task-${n}`, resume: true };
    }
    return this.allocate();
  }

  /** Runs a task in the foreground; the origin's run waits for it before its terminal state. */
  run(request: TaskRequest, origin: TaskOrigin, ids: TaskIds = this.childFor(origin)): Promise<TaskOutcome> {
    const linked = linkSignals([origin.signal, this.#close.signal]);
    const p = runChild({
      host: this.#host,
      request,
      ids,
      ...(ids.resume === undefined ? {} : { resume: ids.resume }),
      runStarted: taskRecord(origin.runId, origin.attempt?.key, request, false),
      ...childScope(origin, request, ids.taskId),
      ...(origin.attachmentsFrom === undefined ? {} : { attachmentsFrom: origin.attachmentsFrom }),
      parentEvents: origin.events,
      signal: linked.signal,
    }).finally(() => linked.dispose());
    this.#track(origin.runId, p);
    return p.then((o) => this.#record(o));
  }

  /** A background task: not awaited by its run's normal end, only by its cancellation. */
  #runBackground(request: TaskRequest, origin: TaskOrigin, ids: TaskIds): Promise<TaskOutcome> {
    const linked = linkSignals([origin.signal, this.#close.signal]);
    const p = runChild({
      host: this.#host,
      request,
      ids,
      ...(ids.resume === undefined ? {} : { resume: ids.resume }),
      runStarted: taskRecord(origin.runId, origin.attempt?.key, request, true),
      ...childScope(origin, request, ids.taskId),
      ...(origin.attachmentsFrom === undefined ? {} : { attachmentsFrom: origin.attachmentsFrom }),
      parentEvents: origin.events,
      signal: linked.signal,
    }).finally(() => linked.dispose());
    this.#track(`${origin.runId}#background`, p);
    return p.then((o) => this.#record(o));
  }

  /**
   * Runs one worker run in the background: a child on the worker's own thread (continued by each
   * re-run), under `origin`'s governance narrowed by `worker.governance`, stopped by the origin
   * run's cancellation, the session's close or `worker.signal`. Never rejects.
   */
  runWorker(
    request: TaskRequest,
    origin: TaskOrigin,
    ids: { readonly taskId: string; readonly thread: string },
    worker: WorkerRunOptions,
  ): Promise<TaskOutcome> {
    const linked = linkSignals([origin.signal, this.#close.signal, worker.signal]);
    const memory = this.#host.config.persistence === 'memory';
    const store = async (): Promise<FactStore> => {
      let log = this.#memoryLogs.get(ids.thread);
      if (log === undefined) {
        log = new MemoryFactStore();
        this.#memoryLogs.set(ids.thread, log);
      }
      return log;
    };
    const governance = worker.governance(origin.governance);
    const scope = origin.capabilities?.subtask(ids.taskId, governance);
    const p = runChild({
      host: this.#host,
      request,
      ids,
      governance,
      ...(scope === undefined ? {} : { scope }),
      ...(origin.attachmentsFrom === undefined ? {} : { attachmentsFrom: origin.attachmentsFrom }),
      parentEvents: this.liveEvents,
      signal: linked.signal,
      announce: worker.announce,
      runStarted: worker.runStarted,
      ...(memory ? { store } : {}),
    }).finally(() => linked.dispose());
    this.#track(`${origin.runId}#background`, p);
    return p;
  }

  /** Starts a background task (ended by the run's cancellation or the session's close); returns its id. */
  start(request: TaskRequest, origin: TaskOrigin): { readonly taskId: string; readonly thread: string } {
    const ids = this.childFor(origin);
    this.#keep(ids.taskId, request.agent.name, this.#runBackground(request, origin, ids));
    return ids;
  }

  /**
   * Takes up background task `taskId` of an earlier process of this session, from its log on
   * disk: a run that ended is reported from its log; a run the process left cut off is continued
   * in the background when `origin` is the run that started it (resumed), else reported failed
   * (`TASK_INTERRUPTED`): another run's governance is not the one the task started under. True when the task is known
   * (now or already); false when no background task of that id is on disk, or its agent is gone.
   */
  adopt(taskId: string, origin: TaskOrigin): boolean {
    if (this.#background.has(taskId)) return true;
    if (!/^task-[1-9]\d{0,8}$/.test(taskId) || this.#host.config.persistence !== 'file') return false;
    const thread = `${this.#thread}.${taskId}`;
    const recorded = recordedBackgroundTask(join(this.logFolder, `${thread}.jsonl`));
    const agent = recorded === undefined ? undefined : this.agents.get(recorded.agent);
    if (recorded === undefined || agent === undefined) return false;
    const request: TaskRequest = { agent, description: recorded.description, prompt: '' };
    // Only the run that started it continues it, under that run's governance; any other run sees how it ended.
    const resume = recorded.run_id === origin.runId ? true : 'report';
    this.#keep(taskId, agent.name, this.#runBackground(request, origin, { taskId, thread, resume }));
    return true;
  }

  #keep(taskId: string, agent: string, promise: Promise<TaskOutcome>): void {
    const entry: Background = { agent, promise };
    entry.promise
      .then((o) => (entry.outcome = o))
      .catch(() => undefined)
      .finally(() => (entry.settled = true));
    this.#background.set(taskId, entry);
  }

  /** A background task's outcome: waits for it unless `wait` is false. `undefined` for an unknown id. */
  async result(
    taskId: string,
    wait: boolean,
    signal?: AbortSignal,
  ): Promise<
    TaskOutcome | { readonly task_id: string; readonly agent: string; readonly status: 'running' } | undefined
  > {
    const entry = this.#background.get(taskId);
    if (entry === undefined) return undefined;
    if (entry.outcome !== undefined || !wait)
      return entry.outcome ?? { task_id: taskId, agent: entry.agent, status: 'running' };
    if (signal === undefined) return entry.promise;
    return Promise.race([
      entry.promise,
      new Promise<never>((_, reject) =>
        signal.aborted
          ? reject(signal.reason)
          : signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      ),
    ]);
  }

  /** Ids of the background tasks started so far. */
  backgroundTaskIds(): readonly string[] {
    return [...this.#background.keys()];
  }

  /** Ids of the background tasks still running. */
  runningBackgroundTaskIds(): readonly string[] {
    return [...this.#background].filter(([, e]) => e.settled !== true).map(([id]) => id);
  }

  /**
   * Resolves when every foreground child started by run `runId` has settled; with
   * `background`, its background children too (a cancelled run cancels them).
   */
  async settle(runId: string, background = false): Promise<void> {
    for (const key of background ? [runId, `${runId}#background`] : [runId]) {
      const set = this.#children.get(key);
      if (set === undefined) continue;
      while (set.size > 0) await Promise.allSettled([...set]);
      this.#children.delete(key);
    }
  }

  /** Task records for the session snapshot. */
  snapshots(): readonly SubagentTaskSnapshot[] {
    return this.#records;
  }

  /** Cancels every child (session close) and waits for them to settle. */
  async close(): Promise<void> {
    this.#close.abort('session closed');
    await Promise.allSettled([...this.#children.values()].flatMap((s) => [...s]));
  }

  #track(runId: string, p: Promise<unknown>): void {
    let set = this.#children.get(runId);
    if (set === undefined) {
      set = new Set();
      this.#children.set(runId, set);
    }
    const s = set;
    s.add(p);
    p.finally(() => s.delete(p)).catch(() => undefined);
  }

  #record(o: TaskOutcome): TaskOutcome {
    this.#records.push({
      task_id: o.task_id,
      agent: o.agent,
      status: o.status,
      description: o.description,
      thread: o.thread,
      run_id: o.run_id,
      ...(o.error ? { error: o.error } : {}),
    });
    return o;
  }
}
