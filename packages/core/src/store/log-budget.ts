/**
 * The size a fact log may grow to. A log is read whole when it is opened, so one larger than
 * `MAX_FACT_LOG_BYTES` could never be opened again and the session's whole history would be lost.
 * Every append is therefore checked before the log (in memory or on disk) changes: one that
 * would take the file past the limit is refused with `FACT_LOG_FULL`, and the log stays as it was.
 * A small reserve below the limit is kept for the facts that record a run's end, so a run
 * refused for size still ends recorded.
 */
import { A3sError, encodeFact, type Fact } from '@a3s-code/effect';
import { MAX_FACT_LOG_BYTES } from './log-file.js';

/** How large a store's log may grow (tests pass small values; the defaults fit every log). */
export interface FactLogLimits {
  /** Most bytes of the file. Default and upper bound: `MAX_FACT_LOG_BYTES`, the most a log can have and still be opened. */
  readonly maxBytes?: number;
  /**
   * Bytes below `maxBytes` that only the facts recording a run's end (`run.ended`) or a restored
   * file (`log.restored`) may use. Default {@link FACT_LOG_RESERVE_BYTES}.
   */
  readonly reserveBytes?: number;
}

/** The default reserve of {@link FactLogLimits}: 1 MiB. */
export const FACT_LOG_RESERVE_BYTES = 1024 * 1024;

/** Facts that may use the reserve: what a failing run, or a restore, must still be able to record. */
const RESERVED_TYPES: ReadonlySet<string> = new Set(['run.ended', 'log.restored']);

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** An append was refused: it would take the log past the size it can still be opened with. Nothing was appended. */
export class FactLogFullError extends A3sError {
  constructor(path: string, bytes: number, adding: number, limit: number, types: readonly string[]) {
    const what = [...new Set(types)].join(', ');
    super(
      'FACT_LOG_FULL',
      `fact log '${path}' is ${bytes} bytes (${mib(bytes)}); appending ${what} (${adding} bytes) would take it past ${limit} bytes (${mib(limit)}), the most it may hold and still be opened again; nothing was appended, and the history so far is kept and can be opened; start a new session to go on`,
      { details: { path, bytes, adding, limit } },
    );
  }
}

/**
 * An append was refused: one of its facts is too large to encode as a line (its JSON would pass
 * the longest string JavaScript can hold). Nothing was appended.
 */
export class FactTooLargeError extends A3sError {
  constructor(path: string, type: string) {
    super(
      'FACT_TOO_LARGE',
      `a '${type}' fact for fact log '${path}' is too large to record: its JSON line would pass the longest string JavaScript can hold (about ${STRING_LIMIT_MIB} MiB of text); nothing was appended, and the history so far is kept`,
      { details: { path, type } },
    );
  }
}

/** About the longest string V8 holds (2^29 - 24 characters), in MiB of one-byte text. */
const STRING_LIMIT_MIB = 512;

function encodeLine(fact: Fact, path: string): string {
  try {
    return encodeFact(fact);
  } catch (e) {
    if (e instanceof RangeError) throw new FactTooLargeError(path, fact.type);
    throw e;
  }
}

/**
 * Encodes the facts appended to a log, checks them against the limit (see
 * {@link FactLogBudget.admit}) and keeps their lines until the store writes them.
 */
export class FactLogBudget {
  readonly maxBytes: number;
  readonly reserveBytes: number;
  private lines: string[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly path: string,
    limits: FactLogLimits = {},
  ) {
    this.maxBytes = Math.min(limits.maxBytes ?? MAX_FACT_LOG_BYTES, MAX_FACT_LOG_BYTES);
    this.reserveBytes = Math.min(limits.reserveBytes ?? FACT_LOG_RESERVE_BYTES, this.maxBytes);
  }

  /**
   * Admits `facts` to a log whose file holds `fileBytes`, counting the lines admitted but not
   * yet written; keeps their lines for {@link FactLogBudget.pending}.
   * @throws FactLogFullError when the file would pass the limit (the reserve is only for run ends and restores).
   */
  admit(facts: readonly Fact[], fileBytes: number): void {
    const lines = facts.map((f) => `${encodeLine(f, this.path)}\n`);
    const adding = lines.reduce((n, line) => n + Buffer.byteLength(line, 'utf8'), 0);
    const reserved = facts.every((f) => RESERVED_TYPES.has(f.type));
    const limit = reserved ? this.maxBytes : this.maxBytes - this.reserveBytes;
    const bytes = fileBytes + this.pendingBytes;
    if (bytes + adding > limit)
      throw new FactLogFullError(
        this.path,
        bytes,
        adding,
        limit,
        facts.map((f) => f.type),
      );
    this.lines.push(...lines);
    this.pendingBytes += adding;
  }

  /** The lines admitted and not yet written, in order, and how many facts they hold. */
  pending(): { readonly text: string; readonly facts: number } {
    return { text: this.lines.join(''), facts: this.lines.length };
  }

  /** Forgets the pending lines: they were written (or the whole log was written back). */
  written(): void {
    this.lines = [];
    this.pendingBytes = 0;
  }
}
