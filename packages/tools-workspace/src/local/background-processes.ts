/**
 * The commands of one `LocalExec` that are running, or that left processes running after they
 * returned (a dev server started with `&`). The latter are killed by `terminate()`; both, as a
 * last resort, synchronously when the host process exits.
 */
import type { ExecMark } from './proc-scan.js';
import { killMarkedSync, terminateMarked } from './process-killer.js';

/** Every registry holding marks, for the one `exit` listener of this module. */
const holding = new Set<BackgroundProcesses>();
let exitHook: (() => void) | undefined;

function onHostExit(): void {
  for (const registry of holding) registry.killSync();
}

function watch(registry: BackgroundProcesses): void {
  holding.add(registry);
  if (exitHook === undefined) {
    exitHook = onHostExit;
    process.on('exit', exitHook);
  }
}

function unwatch(registry: BackgroundProcesses): void {
  holding.delete(registry);
  if (holding.size === 0 && exitHook !== undefined) {
    process.off('exit', exitHook);
    exitHook = undefined;
  }
}

/** Marks of commands with processes still running, and how to end them. */
export class BackgroundProcesses {
  #marks: ExecMark[] = [];
  readonly #running = new Set<ExecMark>();
  /** Marks of finished commands being terminated (SIGTERM sent, the grace period running). */
  readonly #stopping = new Set<ExecMark>();

  /** Number of finished commands whose processes are tracked. */
  get size(): number {
    return this.#marks.length;
  }

  /** Tracks a command while it runs, for the host's `exit`. */
  hold(mark: ExecMark): void {
    this.#running.add(mark);
    watch(this);
  }

  /** The command has returned: its processes are gone or, when `left`, tracked until {@link terminate}. */
  release(mark: ExecMark, left: boolean): void {
    this.#running.delete(mark);
    if (left) this.#marks.push(mark);
    this.#unwatchIfIdle();
  }

  /**
   * SIGTERM the processes of finished commands, SIGKILL what is left after `graceMs`; forgets
   * them once they are gone (the host's `exit` during the grace period still kills them).
   */
  async terminate(graceMs: number): Promise<void> {
    const marks = this.#marks;
    this.#marks = [];
    for (const mark of marks) this.#stopping.add(mark);
    try {
      await terminateMarked(marks, graceMs, false);
    } finally {
      for (const mark of marks) this.#stopping.delete(mark);
      this.#unwatchIfIdle();
    }
  }

  /** SIGKILL every tracked process, running and stopping commands included, now and synchronously. */
  killSync(): void {
    killMarkedSync([...this.#running], true);
    killMarkedSync([...this.#marks, ...this.#stopping], false);
    this.#marks = [];
    this.#running.clear();
    this.#stopping.clear();
    unwatch(this);
  }

  #unwatchIfIdle(): void {
    if (this.#marks.length === 0 && this.#running.size === 0 && this.#stopping.size === 0) unwatch(this);
  }
}
