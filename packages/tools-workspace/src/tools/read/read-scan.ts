/**
 * Reading a large file for `read` in one pass, in bounded memory: the bytes stream through a
 * SHA-256 and a line splitter that counts every line and keeps only the lines of the ranges asked
 * for (each line only as far as it can be shown), so a file of gigabytes costs its chunk, its page
 * and its time, never its size. What it reports is what reading the file whole reports: the same
 * digest, line count, lines, cuts, binary or UTF-16 verdict and CR-only line ends.
 */
import { createHash } from 'node:crypto';
import { looksBinary, utf16Bom, utf16Sample, type Utf16Encoding } from '../shared/text.js';

/** Longest line shown, in characters; longer lines are cut with a marker. */
export const MAX_LINE_CHARS = 2000;

/** Lines `[offset, offset + limit)` of a file, as a read asks for them. */
export interface LineRange {
  readonly offset: number;
  readonly limit: number;
}

/** One line: its text (a line longer than can be shown, only as far as it is shown) and its length. */
export interface ShownLine {
  readonly text: string;
  readonly chars: number;
}

/** The lines of a text file. */
export interface FileLines {
  readonly length: number;
  /** Line `index` (0-based) without its terminator; a very long line only as far as it can be shown. */
  line(index: number): ShownLine;
  /**
   * Whether line `index` is at hand. Absent when every line is; a large file keeps only the lines
   * of the ranges it was read for, as far as they can fill the output.
   */
  has?(index: number): boolean;
}

/** A loaded file. */
export type LoadedFile =
  | {
      readonly kind: 'text';
      readonly lines: FileLines;
      readonly size: number;
      readonly digest: string;
      /** Set for a UTF-16 file (shown decoded); a UTF-8 file has none. */
      readonly encoding?: Utf16Encoding;
    }
  | { readonly kind: 'binary'; readonly size: number; readonly digest: string };

/** Characters kept of a line: one more than shown, so a cut line is known to be cut. */
const KEEP_CHARS = MAX_LINE_CHARS + 1;
/** Bytes of a line's start that always hold its first {@link KEEP_CHARS} characters. */
const HEAD_BYTES = KEEP_CHARS * 4;
/** Bytes looked at to tell text from binary data and UTF-16 from UTF-8 (as a whole read does). */
const SAMPLE_BYTES = 8192;
/** The fewest output bytes a line takes when shown: the number gutter, the newline, a byte a character. */
const LINE_COST = 8;

const lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The ranges a scan keeps lines for. A range stops keeping once its kept lines would already
 * fill `budget` bytes of output, which no read shows more of.
 */
class Wanted {
  private readonly ranges: Array<{ start: number; end: number; used: number }>;
  private next = 0;
  constructor(
    ranges: readonly LineRange[],
    private readonly budget: number,
  ) {
    this.ranges = ranges.map((r) => ({ start: r.offset, end: r.offset + r.limit, used: 0 }));
  }

  /** Whether line `index` is kept; asked for every line, in order. */
  has(index: number): boolean {
    if (index < this.next) return false;
    let next = Number.POSITIVE_INFINITY;
    let hit = false;
    for (const r of this.ranges) {
      if (r.used > this.budget || index >= r.end) continue;
      if (index >= r.start) hit = true;
      else if (r.start < next) next = r.start;
    }
    this.next = hit ? index + 1 : next;
    return hit;
  }

  /** Counts kept line `index` of `chars` characters against the ranges that hold it. */
  spend(index: number, chars: number): void {
    const cost = LINE_COST + Math.min(chars, MAX_LINE_CHARS);
    for (const r of this.ranges) if (r.used <= this.budget && index >= r.start && index < r.end) r.used += cost;
  }
}

/** Splits UTF-8 bytes into lines at `\n` (dropping a `\r` before it) or at `\r`, keeping the wanted ones. */
class Splitter {
  /** Lines ended so far. */
  lines = 0;
  /** Whether a separator was seen. */
  seen = false;
  readonly kept = new Map<number, ShownLine>();
  private bytes = 0;
  private keeping: boolean;
  private readonly head = Buffer.allocUnsafe(HEAD_BYTES);
  private headLength = 0;
  private readonly counter = new TextDecoder('utf-8', { ignoreBOM: true });
  private chars = 0;
  private endsInCr = false;

  constructor(
    private readonly separator: 10 | 13,
    private readonly wanted: Wanted,
  ) {
    this.keeping = wanted.has(0);
  }

  feed(bytes: Buffer): void {
    for (let pos = 0; pos < bytes.length; ) {
      const at = bytes.indexOf(this.separator, pos);
      const end = at < 0 ? bytes.length : at;
      if (end > pos) {
        this.bytes += end - pos;
        if (this.keeping) this.keep(bytes.subarray(pos, end));
      }
      if (at < 0) return;
      this.seen = true;
      this.endLine();
      pos = at + 1;
    }
  }

  /** Ends the last line (one without a terminator). */
  finish(): void {
    if (this.bytes > 0) this.endLine();
  }

  private keep(part: Buffer): void {
    if (this.headLength < HEAD_BYTES) {
      const n = Math.min(part.length, HEAD_BYTES - this.headLength);
      part.copy(this.head, this.headLength, 0, n);
      this.headLength += n;
    }
    this.count(this.counter.decode(part, { stream: true }));
  }

  private count(decoded: string): void {
    if (decoded.length === 0) return;
    this.chars += decoded.length;
    this.endsInCr = decoded.charCodeAt(decoded.length - 1) === 13;
  }

  private endLine(): void {
    if (this.keeping) {
      this.count(this.counter.decode());
      const chars = this.separator === 10 && this.endsInCr ? this.chars - 1 : this.chars;
      const text = lineDecoder.decode(this.head.subarray(0, this.headLength));
      const shown = Math.min(chars, KEEP_CHARS);
      this.kept.set(this.lines, { text: text.length > shown ? text.slice(0, shown) : text, chars });
      this.wanted.spend(this.lines, chars);
      this.headLength = 0;
      this.chars = 0;
      this.endsInCr = false;
    }
    this.lines++;
    this.bytes = 0;
    this.keeping = this.wanted.has(this.lines);
  }
}

/** How the bytes after the sample are taken. */
type Mode =
  | { readonly kind: 'binary' }
  | { readonly kind: 'utf8' }
  | {
      readonly kind: 'utf16';
      readonly encoding: Utf16Encoding;
      readonly decoder: InstanceType<typeof TextDecoder>;
      readonly sniffed: boolean;
    };

/**
 * One pass over a file's bytes, pushed in order a chunk at a time; {@link finish} gives the
 * file as a whole read would load it, with the lines of `ranges` at hand.
 */
export class FileScanner {
  private readonly hash = createHash('sha256');
  private size = 0;
  private sample: Uint8Array[] = [];
  private sampled = 0;
  private mode: Mode | undefined;
  private readonly lf: Splitter;
  /** Splits at CR while no LF was seen: a file whose only line ends are CR (old Mac) is split so. */
  private cr: Splitter | undefined;

  /** `budget`: output bytes of a response, past which no range's lines are kept. */
  constructor(ranges: readonly LineRange[], budget: number) {
    this.lf = new Splitter(10, new Wanted(ranges, budget));
    this.cr = new Splitter(13, new Wanted(ranges, budget));
  }

  /** The next bytes of the file; `chunk` is not kept. */
  push(chunk: Uint8Array): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.mode !== undefined) return this.take(chunk);
    this.sampled += chunk.length;
    if (this.sampled >= SAMPLE_BYTES) {
      this.sample.push(chunk);
      return this.decide();
    }
    // Held until the file's kind is told, past this call: a copy, as the chunk may be reused.
    this.sample.push(Buffer.from(chunk));
  }

  /** The file, once every byte was pushed. */
  finish(): LoadedFile {
    if (this.mode === undefined) this.decide();
    const mode = this.mode!;
    const digest = `sha256:${this.hash.digest('hex')}`;
    if (mode.kind === 'utf16') {
      // UTF-16 recognised without a byte-order mark must have whole code units and decode whole.
      if (mode.sniffed && this.size % 2 !== 0) this.mode = { kind: 'binary' };
      else this.decode(() => mode.decoder.decode());
    }
    if (this.mode!.kind === 'binary') return { kind: 'binary', size: this.size, digest };
    this.lf.finish();
    this.cr?.finish();
    const split = this.lf.seen || this.cr === undefined || !this.cr.seen ? this.lf : this.cr;
    const kept = split.kept;
    const lines: FileLines = {
      length: split.lines,
      line: (index) => kept.get(index) ?? { text: '', chars: 0 },
      has: (index) => kept.has(index),
    };
    return {
      kind: 'text',
      lines,
      size: this.size,
      digest,
      ...(mode.kind === 'utf16' ? { encoding: mode.encoding } : {}),
    };
  }

  /** Tells the file's kind from its first bytes, as a whole read does, and takes the bytes held so far. */
  private decide(): void {
    const held = this.sample.length === 1 ? this.sample[0]! : Buffer.concat(this.sample);
    this.sample = [];
    const start = held.subarray(0, SAMPLE_BYTES);
    const bom = utf16Bom(start);
    const sniffed = bom === undefined && held.length >= 4 ? utf16Sample(start) : undefined;
    const encoding = bom ?? sniffed;
    let skip = 0;
    if (encoding !== undefined) {
      const decoder = new TextDecoder(encoding, { fatal: sniffed !== undefined, ignoreBOM: true });
      this.mode = { kind: 'utf16', encoding, decoder, sniffed: sniffed !== undefined };
      skip = bom === undefined ? 0 : 2;
    } else if (looksBinary(start)) {
      this.mode = { kind: 'binary' };
    } else {
      this.mode = { kind: 'utf8' };
      // A UTF-8 byte-order mark is not part of the first line, as decoding the file whole drops it.
      if (start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf) skip = 3;
    }
    this.take(held.subarray(skip));
  }

  private take(chunk: Uint8Array): void {
    const mode = this.mode!;
    if (mode.kind === 'binary') return;
    if (mode.kind === 'utf8') return this.split(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.decode(() => mode.decoder.decode(chunk, { stream: true }));
  }

  /** Splits UTF-16 text as its UTF-8 bytes; text that does not decode makes the file binary. */
  private decode(next: () => string): void {
    let text: string;
    try {
      text = next();
    } catch {
      // Not UTF-16 after all; its start has NUL bytes, which is what a whole read calls binary.
      this.mode = { kind: 'binary' };
      this.cr = undefined;
      return;
    }
    if (text.length > 0) this.split(Buffer.from(text, 'utf8'));
  }

  private split(bytes: Buffer): void {
    this.lf.feed(bytes);
    if (this.cr === undefined) return;
    if (this.lf.seen) this.cr = undefined;
    else this.cr.feed(bytes);
  }
}
