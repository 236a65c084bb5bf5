/**
 * The commands of one `LocalExec` that left processes running after they returned (a dev server
 * started with `&`). They are killed by `close()` and, as a last resort, synchronously when the
 * host process exits.
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

  /** Number of commands whose processes are tracked. */
  get size(): number {
    return this.#marks.length;
  }

  /** Tracks the processes of a command that returned while some were still running. */
  add(mark: ExecMark): void {
    this.#marks.push(mark);
    watch(this);
  }

  /** SIGTERM every tracked process, SIGKILL what is left after `graceMs`; forgets them. */
  async terminate(graceMs: number): Promise<void> {
    const marks = this.#marks;
    this.#marks = [];
    unwatch(this);
    await terminateMarked(marks, graceMs, false);
  }

  /** SIGKILL every tracked process now, synchronously. */
  killSync(): void {
    killMarkedSync(this.#marks);
    this.#marks = [];
    unwatch(this);
  }
}
