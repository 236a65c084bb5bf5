/**
 * The one error hierarchy of A3S Code. Every error the product throws on purpose extends
 * {@link A3sError}: it has a stable machine-readable `code`, and a `Symbol.for` brand so that
 * `A3sError.isInstance(e)` works even when two copies of a package are installed (where
 * `instanceof` would fail). Higher packages (`core`, the SDK) extend this base class.
 */

const BRAND = Symbol.for('a3s-code.error');

/** Fields every A3S error can carry beyond its message. */
export interface A3sErrorOptions {
  /** The underlying error, kept for diagnosis. */
  readonly cause?: unknown;
  /** Structured detail (field path, line number, allowed values, ...). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Base class of every A3S error: a stable `code`, a message for people, optional details. */
export class A3sError extends Error {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_A3sError`; people read `A3sError`.
    Object.defineProperty(this, 'name', { value: 'A3sError' });
  }
  /** Stable, upper snake-case identifier (`STEP_LIMIT`, `DUPLICATE_FACT`, ...). */
  readonly code: string;
  /** Structured detail for programs; never needed to understand the message. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: A3sErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    // A bundler may rename a class that refers to itself (`class _A3sError`); the name people read is the source's.
    this.name = new.target.name.replace(/^_+/, '');
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
  }

  /** True when `value` is an A3S error from any copy of this package (brand check). */
  static isInstance(value: unknown): value is A3sError {
    if (typeof value !== 'object' || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[BRAND] === true;
    } catch {
      // A thrown Proxy whose traps throw is no A3S error (and must not throw while being asked).
      return false;
    }
  }

  /** True when `value` is an A3S error with the given code. */
  static hasCode(value: unknown, code: string): value is A3sError {
    return A3sError.isInstance(value) && value.code === code;
  }
}

/**
 * `text` for a message, at most about 200 characters: a field name or a fact type comes from the
 * log or a draft, and a hostile one can be megabytes long.
 */
function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 120)}…(${text.length} chars)`;
}

/**
 * A complete line of a fact log is not a valid fact. Names the 1-based line and the field, and the
 * file when the log was read from one.
 */
export class FactParseError extends A3sError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_FactParseError`; people read `FactParseError`.
    Object.defineProperty(this, 'name', { value: 'FactParseError' });
  }
  /** 1-based line number in the log text. */
  readonly line: number;
  /** The offending field (`seq`, `payload.decision.kind`, ...) or `json` for unparseable text. */
  readonly field: string;
  /** The log file the line is in, when known. */
  readonly file: string | undefined;
  readonly #problem: string;

  constructor(line: number, field: string, problem: string, file?: string) {
    super(
      'FACT_PARSE',
      `fact log ${file === undefined ? '' : `'${clip(file)}' `}line ${line}: ${clip(field)}: ${problem}`,
      { details: file === undefined ? { line, field } : { line, field, file } },
    );
    this.line = line;
    this.field = field;
    this.file = file;
    this.#problem = problem;
  }

  /** The same error, naming the log file `file` the line was read from. */
  inFile(file: string): FactParseError {
    return new FactParseError(this.line, this.field, this.#problem, file);
  }
}

/** A fact or draft has a field of the wrong shape. Names the field path and what is allowed. */
export class FactValidationError extends A3sError {
  /** Path of the offending field, e.g. `payload.calls[0].id`. */
  readonly field: string;
  /** The fact type being validated. */
  readonly factType: string;

  constructor(factType: string, field: string, problem: string) {
    super('INVALID_FACT', `${clip(factType)}: ${clip(field)}: ${problem}`, { details: { type: factType, field } });
    this.field = field;
    this.factType = factType;
  }
}

/** A fact key already in the log was appended again with a different type, payload or cause. */
export class DuplicateFactError extends A3sError {
  /** The reused key. */
  readonly key: string;

  constructor(key: string, existingSeq: number, difference: string) {
    super('DUPLICATE_FACT', `fact key '${key}' already exists at seq ${existingSeq} with a different ${difference}`, {
      details: { key, existing_seq: existingSeq, difference },
    });
    this.key = key;
  }
}

/** The facts given to a `FactLog` do not form a contiguous sequence starting at 1. */
export class FactSequenceError extends A3sError {
  constructor(index: number, expected: number, actual: unknown) {
    super('FACT_SEQUENCE', `fact at index ${index}: seq must be ${expected}, got ${JSON.stringify(actual)}`, {
      details: { index, expected, actual },
    });
  }
}

/** A run needed more than its transition limit (32 per `send`/`stream`/`resumeRun`). */
export class StepLimitError extends A3sError {
  /** The limit that was reached. */
  readonly limit: number;
  /** The key of the transition that was not run. */
  readonly nextKey: string;

  constructor(limit: number, nextKey: string) {
    super('STEP_LIMIT', `step limit of ${limit} transitions reached; next transition '${nextKey}' was not run`, {
      details: { limit, next_key: nextKey },
    });
    this.limit = limit;
    this.nextKey = nextKey;
  }
}

/** A request names a phase, transition or answer that the current state does not allow. */
export class InvalidTransitionError extends A3sError {
  constructor(message: string, details: Readonly<Record<string, unknown>> = {}) {
    super('INVALID_TRANSITION', message, { details });
  }
}

/** A harness recipe has an unknown key, a value out of range, or tries to disable a kernel check. */
export class RecipeError extends A3sError {
  /** The offending recipe key. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super('INVALID_RECIPE', `recipe.${field}: ${problem}`, { details: { field } });
    this.field = field;
  }
}
