/**
 * The vibe roster: one session's background workers, as the `vibe_*` tools conduct them. Each
 * worker is a run of the session's worker port (core): its own fact-log thread, the calling run's
 * governance, the model of its tier. The roster keeps what the lead needs to conduct them (label,
 * tier, brief, status, last result) and reads back, when it opens, the workers an earlier process
 * of the session left in its logs: one whose run was still open there is `interrupted`.
 */
import type {
  LlmClient,
  OpenedResource,
  ToolContext,
  WorkerLog,
  WorkerOutcome,
  WorkerPort,
  WorkerRun,
} from '@a3s-code/core';
import { VibeError } from './vibe-errors.js';
import {
  TIER_INSTRUCTIONS,
  VIBE_MAX_WORKERS,
  VIBE_TOOL_NAMES,
  type VibeRosterOptions,
  type VibeTier,
  type VibeWorkerStatus,
  type VibeWorkerView,
} from './vibe-types.js';

interface Entry {
  readonly id: string;
  readonly thread: string;
  readonly label: string;
  readonly tier: VibeTier;
  brief: string;
  status: VibeWorkerStatus;
  runs: number;
  startedAtMs: number | null;
  endedAtMs: number | null;
  result: string;
  error: { readonly code: string; readonly message: string } | undefined;
  run: WorkerRun | undefined;
  settled: Promise<void>;
  /** Set by `vibe_kill`: the run's cancellation is a kill. */
  killed: boolean;
  /** Serialises `vibe_send`/`vibe_kill` on this worker. */
  lock: Promise<unknown>;
}

const PREVIEW_CHARS = 600;

function statusOfLog(log: WorkerLog): VibeWorkerStatus {
  if (log.status === 'running') return log.live ? 'running' : 'interrupted';
  return log.status;
}

function statusOfOutcome(o: WorkerOutcome, killed: boolean): VibeWorkerStatus {
  if (o.status === 'cancelled') return killed ? 'killed' : 'cancelled';
  return o.status;
}

const number = (id: string): number => Number(/(\d+)$/.exec(id)?.[1] ?? 0);

/** The opened roster a `vibe_*` tool gets from `ctx.resource(VIBE_RESOURCE)`. */
export class VibeRoster implements OpenedResource {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_VibeRoster`; people read `VibeRoster`.
    Object.defineProperty(this, 'name', { value: 'VibeRoster' });
  }
  readonly #port: WorkerPort;
  readonly #clock: () => number;
  readonly #tiers: { readonly fast?: LlmClient; readonly good?: LlmClient } | undefined;
  /** The cap on workers running at once. */
  readonly maxWorkers: number;
  readonly #entries = new Map<string, Entry>();
  #closed = false;

  private constructor(
    port: WorkerPort,
    clock: () => number,
    tiers: { readonly fast?: LlmClient; readonly good?: LlmClient } | undefined,
    options: VibeRosterOptions,
  ) {
    this.#port = port;
    this.#clock = clock;
    this.#tiers = tiers;
    this.maxWorkers = options.maxWorkers ?? VIBE_MAX_WORKERS.default;
  }

  /**
   * Opens a roster on a session's worker port, with the workers its logs already record; tier
   * models given as a function are resolved now (what it throws is thrown).
   */
  static async open(port: WorkerPort, clock: () => number, options: VibeRosterOptions = {}): Promise<VibeRoster> {
    const tiers = typeof options.tiers === 'function' ? await options.tiers() : options.tiers;
    const roster = new VibeRoster(port, clock, tiers, options);
    for (const log of await port.logs()) {
      const record = log.record as { brief?: unknown };
      roster.#entries.set(log.workerId, {
        id: log.workerId,
        thread: log.thread,
        label: log.label,
        tier: log.tier === 'good' ? 'good' : 'fast',
        brief: typeof record.brief === 'string' ? record.brief : '',
        status: statusOfLog(log),
        runs: log.runs,
        startedAtMs: log.startedAtMs,
        endedAtMs: log.endedAtMs ?? log.lastAtMs,
        result: log.text,
        error: log.error,
        run: undefined,
        settled: Promise.resolve(),
        killed: false,
        lock: Promise.resolve(),
      });
    }
    return roster;
  }

  /** Starts a new worker on `brief` and returns it at once, running. */
  spawn(ctx: ToolContext, args: { brief: string; label: string; tier?: VibeTier | undefined }): VibeWorkerView {
    this.#open();
    this.#capacity('vibe_spawn');
    const tier = args.tier ?? 'fast';
    const run = this.#port.start(ctx, this.#spec(args.brief, args.label, tier, args.brief));
    const entry: Entry = {
      id: run.workerId,
      thread: run.thread,
      label: args.label,
      tier,
      brief: args.brief,
      status: 'running',
      runs: 0,
      startedAtMs: null,
      endedAtMs: null,
      result: '',
      error: undefined,
      run: undefined,
      settled: Promise.resolve(),
      killed: false,
      lock: Promise.resolve(),
    };
    this.#entries.set(entry.id, entry);
    this.#follow(entry, run);
    return this.#view(entry);
  }

  /** Appends `message` to a worker's brief and re-runs it (a running worker is stopped first). */
  send(ctx: ToolContext, args: { worker_id: string; message: string }): Promise<VibeWorkerView> {
    const entry = this.#get(args.worker_id, 'vibe_send');
    return this.#serial(entry, async () => {
      this.#open();
      if (entry.run !== undefined) {
        entry.run.stop('superseded by vibe_send');
        await entry.settled;
      } else this.#capacity('vibe_send');
      const brief = `${entry.brief}\n\n${args.message}`;
      const prompt = `An addition to your brief; carry on with it:\n\n${args.message}`;
      const run = this.#port.start(ctx, { ...this.#spec(prompt, entry.label, entry.tier, brief), workerId: entry.id });
      entry.brief = brief;
      this.#follow(entry, run);
      return this.#view(entry);
    });
  }

  /** Waits until a worker's run ends, or `timeoutSeconds` pass; returns its state either way. */
  async wait(
    ctx: ToolContext,
    args: { worker_id: string; timeout_seconds?: number | undefined },
  ): Promise<VibeWorkerView & { readonly done: boolean; readonly timed_out: boolean }> {
    const entry = this.#get(args.worker_id, 'vibe_wait');
    let timedOut = false;
    if (entry.run !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      try {
        await Promise.race([
          entry.settled,
          new Promise<void>((resolve) => {
            if (args.timeout_seconds === undefined) return;
            timer = setTimeout(() => {
              timedOut = true;
              resolve();
            }, args.timeout_seconds * 1000);
          }),
          new Promise<never>((_, reject) => {
            onAbort = () => reject(ctx.signal.reason);
            if (ctx.signal.aborted) onAbort();
            else ctx.signal.addEventListener('abort', onAbort, { once: true });
          }),
        ]);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        if (onAbort !== undefined) ctx.signal.removeEventListener('abort', onAbort);
      }
    }
    const done = entry.run === undefined;
    return { ...this.#view(entry, true), done, timed_out: timedOut && !done };
  }

  /** Stops a running worker; a worker that is not running is reported as it is. */
  kill(args: { worker_id: string }): Promise<VibeWorkerView & { readonly killed: boolean }> {
    const entry = this.#get(args.worker_id, 'vibe_kill');
    return this.#serial(entry, async () => {
      const run = entry.run;
      if (run === undefined) return { ...this.#view(entry), killed: false };
      entry.killed = true;
      run.stop('killed by vibe_kill');
      await entry.settled;
      return { ...this.#view(entry), killed: true };
    });
  }

  /** Every worker of the session, oldest first. */
  list(): readonly VibeWorkerView[] {
    return [...this.#entries.values()].sort((a, b) => number(a.id) - number(b.id)).map((e) => this.#view(e));
  }

  /** Workers running now. */
  get running(): number {
    return [...this.#entries.values()].filter((e) => e.run !== undefined).length;
  }

  /** Stops every running worker and waits for them (the session closes). */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    for (const e of entries) e.run?.stop('the session closed');
    await Promise.all(entries.map((e) => e.settled));
  }

  #spec(prompt: string, label: string, tier: VibeTier, brief: string) {
    const model = this.#tiers?.[tier];
    return {
      prompt,
      label,
      tier,
      instructions: TIER_INSTRUCTIONS[tier],
      deniedTools: VIBE_TOOL_NAMES,
      record: { brief },
      ...(model === undefined ? {} : { model }),
    };
  }

  #follow(entry: Entry, run: WorkerRun): void {
    entry.run = run;
    entry.status = 'running';
    entry.runs += 1;
    entry.killed = false;
    entry.startedAtMs = this.#clock();
    entry.endedAtMs = null;
    entry.error = undefined;
    entry.settled = run.outcome.then((o) => {
      entry.run = undefined;
      entry.status = statusOfOutcome(o, entry.killed);
      entry.endedAtMs = this.#clock();
      if (o.text !== '' || o.status !== 'cancelled') entry.result = o.text;
      entry.error = o.error;
    });
  }

  #serial<T>(entry: Entry, op: () => Promise<T>): Promise<T> {
    const next = entry.lock.then(op, op);
    entry.lock = next.catch(() => undefined);
    return next;
  }

  #open(): void {
    if (this.#closed) throw new VibeError('VIBE_CLOSED', 'the session closed and stopped its workers');
  }

  #capacity(tool: string): void {
    const running = [...this.#entries.values()].filter((e) => e.run !== undefined);
    if (running.length >= this.maxWorkers)
      throw new VibeError(
        'VIBE_TOO_MANY_WORKERS',
        `${tool}: ${running.length} workers are running, the most this session allows at once (${this.maxWorkers}); wait for one with vibe_wait or stop one with vibe_kill (running: ${running.map((e) => e.id).join(', ')})`,
        { field: 'worker_id', running: running.map((e) => e.id), max_workers: this.maxWorkers },
      );
  }

  #get(id: string, tool: string): Entry {
    const entry = this.#entries.get(id);
    if (entry !== undefined) return entry;
    const known = [...this.#entries.keys()];
    throw new VibeError(
      'VIBE_UNKNOWN_WORKER',
      `${tool}: worker_id '${id}' names no worker of this session; ${known.length === 0 ? 'none has been spawned yet (vibe_spawn starts one)' : `known workers: ${known.join(', ')}`}`,
      { field: 'worker_id', known },
    );
  }

  #view(e: Entry, full = false): VibeWorkerView {
    const end = e.run !== undefined ? this.#clock() : (e.endedAtMs ?? e.startedAtMs);
    const elapsed = e.startedAtMs === null || end === null ? 0 : Math.max(0, end - e.startedAtMs) / 1000;
    const result =
      full || e.result.length <= PREVIEW_CHARS
        ? e.result
        : `${e.result.slice(0, PREVIEW_CHARS)}… [${e.result.length} chars; vibe_wait returns all]`;
    return {
      worker_id: e.id,
      label: e.label,
      tier: e.tier,
      status: e.status,
      elapsed_seconds: Math.round(elapsed * 10) / 10,
      runs: e.runs,
      last_result: result,
      ...(e.error ? { error: e.error } : {}),
      thread: e.thread,
    };
  }
}
