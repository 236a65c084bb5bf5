/**
 * The file loads of one `read.files` batch: one load per path, for every range the batch asks of
 * it, so a path named many times is read once; up to {@link PREFETCH} paths load ahead of the
 * entry being rendered, in request order; a load is let go as soon as its path's last entry is
 * rendered, and loads still running when the batch ends (ahead of a cut) are stopped. So a batch
 * holds a bounded number of loaded files, each bounded (see `loadFile`).
 */
import type { WorkspaceFileSystem } from '@a3s-code/core';
import { type LineRange, type LoadedFile, loadFile, MAX_READ_LIMIT } from './read-file.js';

/** Paths read ahead of the one being rendered (itself included). */
const PREFETCH = 8;

/**
 * Why loads still running when a read ends are stopped (nobody awaits them). One value for every
 * read: an `abort()` without a reason would build a `DOMException`, with its stack, on every read.
 */
const READ_ENDED = Object.freeze({ reason: 'the read ended' });

/** One entry's path and range. */
interface LoadEntry {
  readonly path: string;
  readonly offset?: number;
  readonly limit?: number;
}

/** The loads of a batch; {@link close} it when the batch ends. */
export class BatchLoads {
  private readonly ranges = new Map<string, LineRange[]>();
  private readonly lastEntry = new Map<string, number>();
  private readonly paths: string[];
  private readonly loads = new Map<string, Promise<LoadedFile>>();
  private readonly stop = new AbortController();
  private readonly onAbort = (): void => this.stop.abort(this.signal.reason);
  private started = 0;

  /** `budget`: output bytes of the response, past which no entry's lines are kept. */
  constructor(
    private readonly fs: WorkspaceFileSystem,
    private readonly entries: readonly LoadEntry[],
    private readonly budget: number,
    private readonly signal: AbortSignal,
  ) {
    entries.forEach((e, i) => {
      const range = { offset: e.offset ?? 0, limit: e.limit ?? MAX_READ_LIMIT };
      this.ranges.set(e.path, [...(this.ranges.get(e.path) ?? []), range]);
      this.lastEntry.set(e.path, i);
    });
    this.paths = [...this.ranges.keys()];
    signal.addEventListener('abort', this.onAbort, { once: true });
    if (signal.aborted) this.onAbort();
  }

  /** The file of entry `index`, loading it (and the next paths) when not yet started. */
  get(index: number): Promise<LoadedFile> {
    const path = this.entries[index]!.path;
    const upTo = Math.min(this.paths.length, this.paths.indexOf(path) + PREFETCH);
    for (; this.started < upTo; this.started++) {
      const next = this.paths[this.started]!;
      const pending = loadFile(this.fs, next, this.stop.signal, this.ranges.get(next)!, this.budget);
      pending.catch(() => undefined);
      this.loads.set(next, pending);
    }
    return this.loads.get(path)!;
  }

  /** Entry `index` is rendered: its path's load is let go when no later entry names it. */
  done(index: number): void {
    const path = this.entries[index]!.path;
    if (this.lastEntry.get(path) === index) this.loads.delete(path);
  }

  /** Stops the loads still running and lets every load go. */
  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.stop.abort(READ_ENDED);
    this.loads.clear();
  }
}
