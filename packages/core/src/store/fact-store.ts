/**
 * What a session needs from a fact log's storage. `FileFactStore` is the durable one;
 * `MemoryFactStore` keeps the log in memory only (tests, throwaway sessions).
 */
import type { Fact, FactDraft, FactLog } from '@a3s-code/effect';
import type { LogRestore } from './log-guard.js';

/** Storage of one session thread's fact log. */
export interface FactStore {
  /** The log in memory; it only grows through `append` or transitions (then `flush`). */
  readonly log: FactLog;
  /** True when appends survive the process (the file store). */
  readonly durable: boolean;
  /** Appends host facts and makes them durable before resolving. */
  append(drafts: readonly FactDraft[], cause: string | null): Promise<Fact[]>;
  /** Makes every fact of `log` durable (after `advance` appended some). */
  flush(): Promise<void>;
  /** Releases the store (flushes first). Idempotent. */
  close(): Promise<void>;
  /**
   * Calls `listener` each time the store finds its file changed by something else and writes the
   * log back over it (the file store); returns the unsubscribe.
   */
  onRestore?(listener: (restore: LogRestore) => void): () => void;
}
