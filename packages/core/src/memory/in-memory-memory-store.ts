/** `InMemoryMemoryStore`: memories kept in this process only (tests, hosts without a workspace). */
import { randomBytes } from 'node:crypto';
import { checkRecall, checkRemember } from './memory-input.js';
import {
  rankMemories,
  type MemoryRecord,
  type MemoryStore,
  type RecallQuery,
  type RememberInput,
} from './memory-store.js';

/** A store of memories in memory. Ready at once, so a session can be built synchronously with it. */
export class InMemoryMemoryStore implements MemoryStore {
  readonly #records = new Map<string, MemoryRecord>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** @inheritdoc */
  async remember(input: RememberInput): Promise<MemoryRecord> {
    const checked = checkRemember(input);
    const now = this.#clock();
    const id =
      checked.key === undefined ? `m-${now.toString(36)}-${randomBytes(5).toString('hex')}` : `k-${checked.key}`;
    const earlier = this.#records.get(id);
    const record: MemoryRecord = {
      id,
      content: checked.content,
      tags: [...(checked.tags ?? [])],
      ...(checked.key === undefined ? {} : { key: checked.key }),
      createdAtMs: earlier?.createdAtMs ?? now,
      updatedAtMs: now,
    };
    this.#records.set(id, record);
    return record;
  }

  /** @inheritdoc */
  async recall(query: RecallQuery): Promise<readonly MemoryRecord[]> {
    return rankMemories([...this.#records.values()], checkRecall(query));
  }

  /** @inheritdoc */
  async forget(id: string): Promise<boolean> {
    return this.#records.delete(id);
  }
}
