/**
 * The lines of a stretch of text, addressed by number without a string or an object per line:
 * where each line starts and a hash of each, in typed arrays filled in one pass over the text.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Lines of `text[from, to)`, a stretch that starts a line and ends after a newline or at the end of the text. */
export class LineTable {
  /** Lines in the stretch. */
  readonly count: number;
  /** Where each line starts in `text`, then where the last one ends: `count + 1` offsets. */
  private readonly starts: Uint32Array;
  /** A 32-bit FNV-1a hash of each line, its newline included. */
  private readonly hashes: Int32Array;

  constructor(
    readonly text: string,
    from: number,
    to: number,
  ) {
    let starts = new Uint32Array(Math.min(to - from, 1024) + 1);
    let hashes = new Int32Array(starts.length);
    let count = 0;
    let h = FNV_OFFSET;
    let start = from;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      h = Math.imul(h ^ c, FNV_PRIME);
      if (c !== 10 && i + 1 < to) continue;
      if (count + 1 === starts.length) {
        const grown = new Uint32Array(Math.min(2 * starts.length, to - from + 1));
        grown.set(starts);
        starts = grown;
        const grownHashes = new Int32Array(grown.length);
        grownHashes.set(hashes);
        hashes = grownHashes;
      }
      starts[count] = start;
      hashes[count++] = h;
      h = FNV_OFFSET;
      start = i + 1;
    }
    starts[count] = to;
    this.count = count;
    this.starts = starts;
    this.hashes = hashes;
  }

  /** Line `k`, with its newline. */
  line(k: number): string {
    return this.text.slice(this.starts[k], this.starts[k + 1]);
  }

  /**
   * A test of whether line `k` of this table equals line `j` of `other`: their hashes first, then
   * their lengths and characters.
   */
  equalityWith(other: LineTable): (k: number, j: number) => boolean {
    const ha = this.hashes;
    const hb = other.hashes;
    const sa = this.starts;
    const sb = other.starts;
    const ta = this.text;
    const tb = other.text;
    return (k, j) => {
      if (ha[k] !== hb[j]) return false;
      const a0 = sa[k]!;
      const b0 = sb[j]!;
      const len = sa[k + 1]! - a0;
      if (sb[j + 1]! - b0 !== len) return false;
      for (let i = 0; i < len; i++) if (ta.charCodeAt(a0 + i) !== tb.charCodeAt(b0 + i)) return false;
      return true;
    };
  }
}
