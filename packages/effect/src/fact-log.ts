import { assertJsonValue } from './check.js';
import { DuplicateFactError, FactSequenceError, FactValidationError } from './errors.js';
import {
  canonicalJson,
  encodeFact,
  readLog,
  validateDraft,
  type Fact,
  type FactDraft,
  type LogTail,
  type LogText,
} from './fact.js';
import { KeyIndex } from './key-index.js';
import { Sha256 } from './sha256.js';
import { wellFormedDraft } from './well-formed.js';

/** A log read from text by {@link FactLog.parse}, and what followed its last complete line. */
export interface ParsedFactLog extends LogTail {
  /** Every complete fact of the text, checked. */
  readonly log: FactLog;
}

/** Identifies a prefix of a log: its last seq and the SHA-256 of its encoded lines. */
export interface LogDigest {
  /** Seq of the last fact covered (0 for the empty log). */
  readonly seq: number;
  /** Hex SHA-256 over `encodeFact(f) + "\n"` for every fact up to `seq` (the file's bytes). */
  readonly digest: string;
}

/**
 * The append-only fact log, in memory. It never rewrites or removes a fact: it only
 * appends, checks every draft before appending any of them, treats an identical re-append as
 * a no-op, and rejects a reused key with different content (`DuplicateFactError`).
 * Lookups by key and by cause are O(1); the digest is maintained incrementally.
 */
export class FactLog {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_FactLog`; people read `FactLog`.
    Object.defineProperty(this, 'name', { value: 'FactLog' });
  }
  private list: Fact[] = [];
  private byKey = new KeyIndex(this.list);
  /** Causes of the facts so far; built on the first `hasCause` (opening a log never asks). */
  private causes: Set<string> | null = null;
  private readonly hash = new Sha256();
  private hashed = 0;
  private guard: ((facts: readonly Fact[]) => void) | null = null;
  private readonly extraGuards = new Set<(facts: readonly Fact[]) => void>();

  /** @param facts An existing log (e.g. from `parseLog`); seq must count up from 1 and keys must be unique. */
  constructor(facts: Iterable<Fact> = []) {
    for (const fact of facts) {
      const index = this.list.length;
      if (fact.seq !== index + 1) throw new FactSequenceError(index, index + 1, fact.seq);
      if (!wellFormedDraft(fact.type, fact.key, fact.payload)) validateDraft(fact, `facts[${index}]`);
      const earlier = this.byKey.find(fact.key);
      if (earlier >= 0) {
        throw new DuplicateFactError(fact.key, earlier + 1, 'position (the key appears twice)');
      }
      this.insert(fact);
    }
  }

  /**
   * Reads a log from its text: the same checks and errors as `parseLog` followed by
   * `new FactLog(facts)`, each line checked once and each key indexed once (the key index
   * is the check that no key is reused).
   */
  static parse(text: LogText): ParsedFactLog {
    const read = readLog(text);
    const log = new FactLog();
    log.list = read.facts;
    log.byKey = read.index;
    return { log, ...read.tail };
  }

  /**
   * Sets the check every append passes before it changes the log (`null` removes it): it gets the
   * facts about to be appended, with their seq, and throws to refuse them, so nothing is appended.
   * A durable store uses it to refuse what it could not keep.
   */
  guardAppends(guard: ((facts: readonly Fact[]) => void) | null): void {
    this.guard = guard;
  }

  /**
   * Adds a check every append passes before it changes the log, alongside the one set by
   * {@link FactLog.guardAppends}; like it, it throws to refuse the facts about to be appended.
   * Returns its remover. A run uses it to refuse facts once the log records its end.
   */
  addAppendGuard(guard: (facts: readonly Fact[]) => void): () => void {
    const own = (facts: readonly Fact[]): void => guard(facts);
    this.extraGuards.add(own);
    return () => {
      this.extraGuards.delete(own);
    };
  }

  /** Every fact, in order. Read-only: the log only changes through `append`. */
  get facts(): readonly Fact[] {
    return this.list;
  }

  /** Number of facts (equals the last seq). */
  get length(): number {
    return this.list.length;
  }

  /** The fact with this key, if any. */
  get(key: string): Fact | undefined {
    const at = this.byKey.find(key);
    return at < 0 ? undefined : this.list[at];
  }

  /** True when some fact in the log was written by the transition with this key. */
  hasCause(transitionKey: string): boolean {
    let causes = this.causes;
    if (causes === null) {
      causes = new Set<string>();
      for (const fact of this.list) if (fact.cause !== null) causes.add(fact.cause);
      this.causes = causes;
    }
    return causes.has(transitionKey);
  }

  /**
   * Appends drafts as one batch with the given cause (the transition key, or `null` for the
   * host). Every draft is validated first; on any error nothing is appended. Drafts whose key
   * already exists with the same type, payload and cause are skipped (idempotent).
   * @returns the facts actually appended, with their seq.
   * @throws FactValidationError for a malformed draft, DuplicateFactError for a reused key, and
   *   whatever the guard set by {@link FactLog.guardAppends} throws.
   */
  append(drafts: readonly FactDraft[], cause: string | null): Fact[] {
    if (!Array.isArray(drafts))
      throw new FactValidationError('?', 'drafts', 'must be an array of {type, key, payload}');
    if (cause !== null && (typeof cause !== 'string' || cause.length === 0)) {
      throw new FactValidationError('?', 'cause', 'must be a non-empty transition key or null');
    }
    const fresh: FactDraft[] = [];
    const batchKeys = new Set<string>();
    drafts.forEach((input, i) => {
      validateDraft(input, `drafts[${i}]`);
      // A -0 is written as 0: keep the payload as it reads back, so a resumed log folds the same.
      const draft = assertJsonValue(input.type, input.payload, `drafts[${i}].payload`)
        ? { type: input.type, key: input.key, payload: JSON.parse(JSON.stringify(input.payload)) as unknown }
        : input;
      const existing = this.get(draft.key);
      if (existing) {
        if (existing.type !== draft.type) throw new DuplicateFactError(draft.key, existing.seq, 'type');
        if (existing.cause !== cause) throw new DuplicateFactError(draft.key, existing.seq, 'cause');
        if (canonicalJson(existing.payload) !== canonicalJson(draft.payload)) {
          throw new DuplicateFactError(draft.key, existing.seq, 'payload');
        }
        return;
      }
      if (batchKeys.has(draft.key)) {
        throw new FactValidationError(draft.type, `drafts[${i}].key`, `'${draft.key}' appears twice in one append`);
      }
      batchKeys.add(draft.key);
      fresh.push(draft);
    });
    const facts = fresh.map(
      (d, i): Fact =>
        Object.freeze({
          seq: this.list.length + 1 + i,
          type: d.type,
          key: d.key,
          cause,
          payload: d.payload,
        }),
    );
    if (facts.length > 0) {
      for (const extra of this.extraGuards) extra(facts);
      this.guard?.(facts);
    }
    for (const fact of facts) this.insert(fact);
    return facts;
  }

  /** The digest of the whole log so far; hashing catches up incrementally from the last call. */
  digest(): LogDigest {
    while (this.hashed < this.list.length) {
      this.hash.update(encodeFact(this.list[this.hashed]!));
      this.hash.update('\n');
      this.hashed++;
    }
    return { seq: this.hashed, digest: this.hash.hex() };
  }

  private insert(fact: Fact): void {
    this.list.push(fact);
    this.byKey.push();
    if (fact.cause !== null) this.causes?.add(fact.cause);
  }
}
