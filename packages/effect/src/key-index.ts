/**
 * The index from a fact's key to its position in the log, and the check that no key is used
 * twice. Opening a log indexes every key, and with a million facts a `Map` of the keys was a
 * quarter of the whole open: every insert landed somewhere random in a table far bigger than
 * the processor's caches. Here a log read at once is indexed in bulk: the keys' hashes (taken
 * while each line is fresh) are sorted by their top bits into partitions, and each partition's
 * table, small enough to stay cached, is filled in turn. The tables hold only positions; the
 * hashes sit beside them in one typed array, so a key is compared with another only when their
 * hashes agree, and a table grows without reading a key.
 *
 * Keys come partly from the model (tool call ids), and this hash has no secret seed, so keys can
 * be chosen to collide. A lookup that has to walk far is the sign: the index then moves to a
 * `Map`, whose hashing is seeded by the engine, and stays there.
 */

/** Something with a key at each position (the log's facts). */
export interface Keyed {
  readonly length: number;
  readonly [index: number]: { readonly key: string };
}

/** A 32-bit hash of a string's UTF-16 code units (FNV-1a, then a murmur3 finaliser to mix every bit). */
export function hashKey(key: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Keys a partition holds, about, when a bulk build chooses the number of partitions. */
const KEYS_PER_PARTITION = 2048;
const MAX_PARTITION_BITS = 8;
const MIN_SLOTS = 8;
/** Slots a lookup may walk before the keys count as chosen to collide (at a load of one half, a few). */
const MAX_PROBES = 48;
/** What {@link KeyIndex.place} answers when it walked too far. */
const FLOODED = -2;

/** A power of two with room for `keys` keys at a load of at most one half. */
function slotsFor(keys: number): number {
  let size = MIN_SLOTS;
  while (size < keys * 2) size *= 2;
  return size;
}

/** The hash-partitioned table from key to position over a list it does not own. */
export class KeyIndex {
  /** `hashes[i]` is the hash of `items[i].key` for every indexed position. */
  private hashes: Int32Array;
  private count = 0;
  /** Partition of a hash: its top `bits` bits. */
  private readonly bits: number;
  /** Per partition, an open-addressing table of position + 1 (0 is an empty slot). */
  private readonly tables: Int32Array[];
  private readonly filled: Int32Array;
  /** Once keys were seen to collide: every key with its position, and the tables are unused. */
  private map: Map<string, number> | null = null;

  /**
   * An empty index over `items`, whose positions from 0 are then indexed one by one with {@link push}.
   * @param hash The hash of a key (tests pass a poor one to check the fall-back).
   */
  constructor(
    private readonly items: Keyed,
    bits = 0,
    private readonly hash: (key: string) => number = hashKey,
  ) {
    this.bits = bits;
    const partitions = 1 << bits;
    this.tables = Array.from({ length: partitions }, () => new Int32Array(MIN_SLOTS));
    this.filled = new Int32Array(partitions);
    this.hashes = new Int32Array(16);
  }

  /**
   * Indexes the first `count` items at once, given their keys' hashes (`hashKey`).
   * @returns the index, and `repeat`: -1, or the first position whose key an earlier position
   *   already has (the build stops early then, and the index is not for use).
   */
  static build(items: Keyed, hashes: Int32Array, count: number): { index: KeyIndex; repeat: number } {
    let bits = 0;
    while (bits < MAX_PARTITION_BITS && count >> bits > KEYS_PER_PARTITION) bits++;
    const index = new KeyIndex(items, bits);
    const partitions = 1 << bits;
    // Counting sort of the positions by partition; each partition keeps its positions in order.
    const starts = new Int32Array(partitions + 1);
    for (let i = 0; i < count; i++) starts[index.partition(hashes[i]!) + 1]!++;
    for (let p = 0; p < partitions; p++) starts[p + 1]! += starts[p]!;
    const next = starts.slice(0, partitions);
    const order = new Int32Array(count);
    for (let i = 0; i < count; i++) order[next[index.partition(hashes[i]!)]!++] = i;
    index.hashes = hashes;
    let repeat = -1;
    for (let p = 0; p < partitions; p++) {
      const table = new Int32Array(slotsFor(starts[p + 1]! - starts[p]!));
      index.tables[p] = table;
      for (let q = starts[p]!; q < starts[p + 1]!; q++) {
        const i = order[q]!;
        if (repeat >= 0 && i > repeat) break;
        const earlier = index.place(table, i);
        if (earlier === FLOODED) return index.buildMap(count);
        if (earlier >= 0) {
          repeat = i;
          break;
        }
        index.filled[p]!++;
      }
    }
    index.count = repeat >= 0 ? repeat : count;
    return { index, repeat };
  }

  /** Number of positions indexed. */
  get size(): number {
    return this.count;
  }

  /** Position of `key`, or -1. */
  find(key: string): number {
    if (this.map !== null) return this.map.get(key) ?? -1;
    const h = this.hash(key);
    const table = this.tables[this.partition(h)]!;
    const mask = table.length - 1;
    let s = h & mask;
    for (let probes = 0; probes < MAX_PROBES; probes++, s = (s + 1) & mask) {
      const at = table[s]!;
      if (at === 0) return -1;
      if (this.hashes[at - 1] === h && this.items[at - 1]!.key === key) return at - 1;
    }
    return this.toMap().get(key) ?? -1;
  }

  /**
   * Indexes the next position (`size`) unless its key is indexed already.
   * @returns -1 when indexed, or the position of the earlier item with the same key (nothing is indexed).
   */
  push(): number {
    const i = this.count;
    const key = this.items[i]!.key;
    if (this.map !== null) return this.pushToMap(this.map, key, i);
    if (i === this.hashes.length) {
      const more = new Int32Array(i * 2);
      more.set(this.hashes);
      this.hashes = more;
    }
    const h = this.hash(key);
    this.hashes[i] = h;
    const p = this.partition(h);
    if ((this.filled[p]! + 1) * 2 > this.tables[p]!.length) this.grow(p);
    const earlier = this.place(this.tables[p]!, i);
    if (earlier === FLOODED) return this.pushToMap(this.toMap(), key, i);
    if (earlier >= 0) return earlier;
    this.filled[p]!++;
    this.count++;
    return -1;
  }

  private partition(h: number): number {
    return this.bits === 0 ? 0 : h >>> (32 - this.bits);
  }

  /** Puts position `i` in `table`, or returns the position already there with the same key, or {@link FLOODED}. */
  private place(table: Int32Array, i: number): number {
    const h = this.hashes[i]!;
    const mask = table.length - 1;
    let s = h & mask;
    for (let probes = 0; probes < MAX_PROBES; probes++, s = (s + 1) & mask) {
      const at = table[s]!;
      if (at === 0) {
        table[s] = i + 1;
        return -1;
      }
      if (this.hashes[at - 1] === h && this.items[at - 1]!.key === this.items[i]!.key) return at - 1;
    }
    return FLOODED;
  }

  /** Indexes position `i` with `key` in the map. */
  private pushToMap(map: Map<string, number>, key: string, i: number): number {
    const earlier = map.get(key);
    if (earlier !== undefined) return earlier;
    map.set(key, i);
    this.count++;
    return -1;
  }

  /** Moves the positions indexed so far (all distinct keys) to a map, for good. */
  private toMap(): Map<string, number> {
    const map = new Map<string, number>();
    for (let i = 0; i < this.count; i++) map.set(this.items[i]!.key, i);
    this.map = map;
    return map;
  }

  /** A bulk build in line order with a map, for keys that collide: the same answer as the tables give. */
  private buildMap(count: number): { index: KeyIndex; repeat: number } {
    const map = new Map<string, number>();
    let repeat = -1;
    for (let i = 0; i < count; i++) {
      const key = this.items[i]!.key;
      if (map.has(key)) {
        repeat = i;
        break;
      }
      map.set(key, i);
    }
    this.map = map;
    this.count = repeat >= 0 ? repeat : count;
    return { index: this, repeat };
  }

  /** Doubles partition `p`'s table, re-placing its positions by their stored hashes (no key is read). */
  private grow(p: number): void {
    const old = this.tables[p]!;
    const table = new Int32Array(old.length * 2);
    const mask = table.length - 1;
    for (const at of old) {
      if (at === 0) continue;
      let s = this.hashes[at - 1]! & mask;
      while (table[s] !== 0) s = (s + 1) & mask;
      table[s] = at;
    }
    this.tables[p] = table;
  }
}
