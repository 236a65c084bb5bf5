/**
 * The memory store contract: what a session remembers across sessions (`remember`) and finds
 * again (`recall`). The default store keeps one JSON file per memory under
 * `<workspace>/.a3s/memory/`, each written by atomic replace; a host may pass its own store.
 */

/** One remembered item. */
export interface MemoryRecord {
  /** Stable id (`k-<hash>` for a keyed memory, `m-<time>-<random>` otherwise). */
  readonly id: string;
  /** What was remembered. */
  readonly content: string;
  /** Labels to find it by. */
  readonly tags: readonly string[];
  /** A key: remembering again under the same key replaces the memory. */
  readonly key?: string;
  /** Epoch milliseconds of the first write, and of the last. */
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

/** What to remember. */
export interface RememberInput {
  /** 1..10000 characters. */
  readonly content: string;
  /** Up to 16 labels of 1..64 characters. */
  readonly tags?: readonly string[];
  /** 1..200 characters; the same key replaces the earlier memory. */
  readonly key?: string;
}

/** What to recall. */
export interface RecallQuery {
  /** Words to look for (any of them; memories matching more come first). Absent: the newest memories. */
  readonly query?: string;
  /** Only memories carrying every one of these tags. */
  readonly tags?: readonly string[];
  /** Most memories to return, `1..50`. Default 10. */
  readonly limit?: number;
}

/** A store of memories. Writes must be atomic: a crash leaves each memory whole or absent. */
export interface MemoryStore {
  /** Stores a memory (replacing the one with the same key); resolves once it is durable. */
  remember(input: RememberInput): Promise<MemoryRecord>;
  /** Memories matching `query`, best first. */
  recall(query: RecallQuery): Promise<readonly MemoryRecord[]>;
  /** Removes a memory by id; resolves whether it existed. */
  forget(id: string): Promise<boolean>;
}

/** The words of a query: lowercase runs of letters and digits, 2 characters or more. */
function words(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [])];
}

/**
 * Ranks memories for a query: with words, a memory must contain at least one (in its content,
 * tags or key) and ranks by how many; ties and a query without words go newest first.
 */
export function rankMemories(all: readonly MemoryRecord[], query: RecallQuery): MemoryRecord[] {
  const limit = query.limit ?? 10;
  const wanted = words(query.query ?? '');
  const tags = query.tags ?? [];
  const scored: { record: MemoryRecord; score: number }[] = [];
  for (const record of all) {
    if (!tags.every((t) => record.tags.includes(t))) continue;
    const hay = `${record.content}\n${record.tags.join(' ')}\n${record.key ?? ''}`.toLowerCase();
    const score = wanted.filter((w) => hay.includes(w)).length;
    if (wanted.length > 0 && score === 0) continue;
    scored.push({ record, score });
  }
  scored.sort((a, b) => b.score - a.score || b.record.updatedAtMs - a.record.updatedAtMs);
  return scored.slice(0, limit).map((s) => s.record);
}
