/** A fact store that keeps the log in memory only: nothing survives the process. */
import { FactLog, type Fact, type FactDraft } from '@a3s-code/effect';
import type { FactStore } from './fact-store.js';

/** In-memory {@link FactStore}. */
export class MemoryFactStore implements FactStore {
  readonly durable = false;
  readonly log: FactLog;

  /** @param facts facts to start from (e.g. a log parsed elsewhere). */
  constructor(facts: Iterable<Fact> = []) {
    this.log = new FactLog(facts);
  }

  async append(drafts: readonly FactDraft[], cause: string | null): Promise<Fact[]> {
    return this.log.append(drafts, cause);
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {}
}
