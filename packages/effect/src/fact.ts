import { describe } from './check.js';
import { FactParseError, FactValidationError } from './errors.js';
import { hashKey, KeyIndex } from './key-index.js';
import { validatePayload } from './kind-validators.js';
import { checkLineFrame, notTornBecause } from './line-shape.js';
import { wellFormedDraft, wellFormedFact } from './well-formed.js';

/** One entry of the append-only fact log, exactly as stored on one line. */
export interface Fact {
  /** Position in the log: 1 for the first fact, then +1 each. */
  readonly seq: number;
  /** The kind (`user.message`, `model.turn`, ...). */
  readonly type: string;
  /** Unique in the log; re-appending the same key with the same content is a no-op. */
  readonly key: string;
  /** Key of the transition that wrote the fact, or `null` for a fact the host appended. */
  readonly cause: string | null;
  /** Kind-specific content (snake_case fields). */
  readonly payload: unknown;
}

/** A fact before it has a place in the log. */
export interface FactDraft {
  readonly type: string;
  readonly key: string;
  readonly payload: unknown;
}

/**
 * A log's text: one string, or its pieces in order (a list, or made one by one as they are read).
 * Pieces let a reader decode a large file in small strings, which are much cheaper to make than
 * one large one, and each can be let go once its lines are read. A piece should end with a newline
 * (one not ending a line is read with the next).
 */
export type LogText = string | Iterable<string>;

/** A torn last line: a crash cut the final write short. */
export interface TornLine {
  /** 1-based line number of the torn line. */
  readonly line: number;
  /** Why it is not a fact. */
  readonly reason: string;
  /** Length, in UTF-16 code units of the input text (its pieces joined), of the part to keep; truncate the rest. */
  readonly validLength: number;
}

/** The result of parsing a whole log. */
export interface ParsedLog {
  readonly facts: Fact[];
  /** Present when the last line is incomplete; it is not in `facts`. */
  readonly torn?: TornLine;
  /**
   * True when the text's last fact is complete but has no trailing newline: the host must
   * write a newline before its next append.
   */
  readonly missingFinalNewline?: boolean;
}

const FIELDS = ['seq', 'type', 'key', 'cause', 'payload'] as const;

/** Encodes one fact as one JSON line (no trailing newline). Field order is fixed. */
export function encodeFact(fact: Fact): string {
  return JSON.stringify({ seq: fact.seq, type: fact.type, key: fact.key, cause: fact.cause, payload: fact.payload });
}

/** Checks the fields of a draft (not its place in a log); throws a `FactValidationError`. */
export function validateDraft(draft: FactDraft, where = 'draft'): void {
  if (typeof draft !== 'object' || draft === null) {
    throw new FactValidationError('?', where, `must be an object {type, key, payload}, got ${describe(draft)}`);
  }
  if (wellFormedDraft(draft.type, draft.key, draft.payload)) return;
  const type = (draft as { type?: unknown }).type;
  if (typeof type !== 'string' || !/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/.test(type)) {
    throw new FactValidationError(
      String(type),
      `${where}.type`,
      `must be a dotted lowercase kind such as 'tool.result', got ${describe(type)}`,
    );
  }
  const key = (draft as { key?: unknown }).key;
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new FactValidationError(type, `${where}.key`, `must be a string of 1 to 512 chars, got ${describe(key)}`);
  }
  if (!('payload' in draft)) throw new FactValidationError(type, `${where}.payload`, 'is missing');
  validatePayload(type, draft.payload);
}

/**
 * Parses one complete line as a fact, checking every field and the payload of known kinds.
 * @param lineNo 1-based line number, used in errors.
 */
export function parseFactLine(text: string, lineNo: number): Fact {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    if (text.charCodeAt(0) === 0xfeff) {
      throw new FactParseError(
        lineNo,
        'json',
        'starts with a byte-order mark (U+FEFF); a fact log is UTF-8 without one',
      );
    }
    throw new FactParseError(lineNo, 'json', `not valid JSON (${(e as Error).message})`);
  }
  const fact = wellFormedFact(raw) ?? checkFact(raw, lineNo);
  // The store never writes deeper (appends are refused past it); a line this deep would overflow
  // the stack of whatever walks it later (encoding it for the digest, folding, a replay).
  if (nestedDeeper(fact.payload, MAX_PAYLOAD_DEPTH + 1)) {
    throw new FactParseError(
      lineNo,
      'payload',
      `is nested deeper than ${MAX_PAYLOAD_DEPTH} levels, which the store never writes, so the file was changed by something else`,
    );
  }
  return fact;
}

/** How deep a payload may nest (as appends allow). */
const MAX_PAYLOAD_DEPTH = 256;

/** True when an object or array sits `levels` or more levels below the object `value` (level 0). */
function nestedDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'object' && v !== null && nestedDeeper(v, levels - 1)) return true;
    }
    return false;
  }
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null && nestedDeeper(v, levels - 1)) return true;
  }
  return false;
}

/** The full checks of a parsed line: the fact, or a `FactParseError` naming the field. */
function checkFact(raw: unknown, lineNo: number): Fact {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new FactParseError(lineNo, 'json', `must be a JSON object, got ${describe(raw)}`);
  }
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!(FIELDS as readonly string[]).includes(k)) {
      throw new FactParseError(lineNo, k, `unknown field; a fact has exactly ${FIELDS.join(', ')}`);
    }
  }
  const { seq, type, key, cause } = obj;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    throw new FactParseError(lineNo, 'seq', `must be an integer >= 1, got ${describe(seq)}`);
  }
  if (typeof cause !== 'string' && cause !== null) {
    throw new FactParseError(lineNo, 'cause', `must be a string or null, got ${describe(cause)}`);
  }
  if (!('payload' in obj)) throw new FactParseError(lineNo, 'payload', 'is missing');
  try {
    validateDraft({ type: type as string, key: key as string, payload: obj.payload }, 'fact');
  } catch (e) {
    if (e instanceof FactValidationError) {
      throw new FactParseError(lineNo, e.field.replace(/^fact\./, ''), e.message);
    }
    throw e;
  }
  return { seq, type: type as string, key: key as string, cause, payload: obj.payload };
}

/**
 * Parses a whole log (JSONL). Every complete line must be a valid fact, with `seq` counting
 * up from 1 and unique keys, or a `FactParseError` names the line and field. A final line
 * without its newline that does not parse is a torn write: it is reported in `torn` (so the
 * host can truncate it), never thrown, and no complete fact is lost; so are blank lines after
 * the last fact.
 */
export function parseLog(text: LogText): ParsedLog {
  const read = readLog(text);
  return { facts: read.facts, ...read.tail };
}

/** What {@link parseLog} found after the last complete line. */
export type LogTail = Omit<ParsedLog, 'facts'>;

/** A log read by {@link readLog}: its facts, their index by key, and what followed the last line. */
export interface ReadLog {
  readonly facts: Fact[];
  readonly index: KeyIndex;
  readonly tail: LogTail;
}

/**
 * Reads and checks a whole log: what {@link parseLog} does, with the key index it builds to check
 * that no key is reused (the log's index by key). Errors are exactly those of checking line by line.
 */
export function readLog(text: LogText): ReadLog {
  const read = readLines(text);
  const { index, repeat } = KeyIndex.build(read.facts, read.hashes, read.facts.length);
  // A reused key comes before the bad line the line loop stopped at, so it is thrown first.
  if (repeat >= 0) throw reusedKey(read.facts[repeat]!, repeat + 1);
  if (read.failed) throw read.error;
  return { facts: read.facts, index, tail: read.tail };
}

/** The lines of a log read by {@link readLines}: every fact before the first bad line. */
interface ReadLines {
  /** Checked facts with `seq` counting up from 1; their keys are not checked for reuse yet. */
  readonly facts: Fact[];
  /** `hashKey` of each fact's key, taken while the line was fresh (the array may be longer). */
  readonly hashes: Int32Array;
  /** What followed the last complete line. */
  readonly tail: LogTail;
  /** True when a line was bad: `error` is what the line threw, and `facts` stop before it. */
  readonly failed: boolean;
  readonly error?: unknown;
}

/**
 * The line loop of {@link readLog}, first of two passes: checks every line and its `seq`,
 * stops at the first bad line and reports it without throwing. The keys are then checked for
 * reuse in bulk, which is much faster than checking each as its line is read.
 */
function readLines(text: LogText): ReadLines {
  const parts: Iterator<string> = typeof text === 'string' ? [text][Symbol.iterator]() : text[Symbol.iterator]();
  const facts: Fact[] = [];
  // About one fact per 256 characters to start with; the array grows when there are more.
  let hashes: Int32Array = new Int32Array(Math.max(16, typeof text === 'string' ? text.length >>> 8 : 4096));
  let lineNo = 0;
  let tail: LogTail = {};
  // Characters of the pieces before the one read; a piece not ending a line is read with the next.
  let base = 0;
  let carry = '';
  try {
    // One piece ahead, to know the last one.
    let ahead = parts.next();
    while (!ahead.done) {
      const part = carry + ahead.value;
      ahead = parts.next();
      const last = ahead.done === true;
      if (!last && part.charCodeAt(part.length - 1) !== 10) {
        carry = part;
        continue;
      }
      carry = '';
      let start = 0;
      while (start < part.length) {
        lineNo++;
        const nl = part.indexOf('\n', start);
        let fact: Fact;
        if (nl === -1) {
          const line = part.slice(start);
          try {
            fact = parseFactLine(line, lineNo);
          } catch (e) {
            const reason = e instanceof FactParseError ? e.message : String(e);
            // Only what a crash can leave is cut off; anything else is named, never truncated away.
            const why = notTornBecause(line);
            if (why !== null) throw notTorn(e, lineNo, why);
            const torn = { line: lineNo, reason, validLength: base + start };
            return { facts, hashes, tail: { torn }, failed: false };
          }
          checkLineFrame(line, lineNo);
          tail = { missingFinalNewline: true };
          start = part.length;
        } else {
          const line = part.slice(start, nl);
          // A line that opens an object is not blank; only others need the (allocating) trim.
          if (line.charCodeAt(0) !== 123 && isBlank(line)) {
            // Blank lines after the last fact (an editor's, a `>>` of nothing) hold nothing: they are cut off.
            if (isBlank(part.slice(nl)) && restBlank(ahead, parts))
              return { facts, hashes, tail: { torn: blankTail(lineNo, base + start) }, failed: false };
            throw new FactParseError(lineNo, 'json', 'empty line inside the log');
          }
          checkLineFrame(line, lineNo);
          fact = parseFactLine(line, lineNo);
          start = nl + 1;
        }
        const n = facts.length;
        checkSeq(n, fact, lineNo);
        if (n === hashes.length) hashes = grown(hashes);
        hashes[n] = hashKey(fact.key);
        facts.push(fact);
      }
      base += part.length;
    }
  } catch (error) {
    return { facts, hashes, tail: {}, failed: true, error };
  }
  return { facts, hashes, tail, failed: false };
}

/** Whether the piece `ahead` and every piece after it are blank (this reads them all). */
function restBlank(ahead: IteratorResult<string>, parts: Iterator<string>): boolean {
  for (let at = ahead; !at.done; at = parts.next()) if (!isBlank(at.value)) return false;
  return true;
}

/**
 * True when `text` holds only spaces, tabs and line breaks: what an editor or a `>>` of nothing
 * leaves. Other white space (a no-break space, U+FEFF, an ideographic space) is written on purpose.
 */
function isBlank(text: string): boolean {
  return /^[ \t\r\n]*$/.test(text);
}

/** The tail of a log whose lines from `lineNo` (at `start`) on are blank. */
export function blankTail(lineNo: number, start: number): TornLine {
  return { line: lineNo, reason: `fact log line ${lineNo}: only blank lines follow the last fact`, validLength: start };
}

/** The error for an unterminated last line that is no fact and no torn write either (`why`). */
function notTorn(e: unknown, lineNo: number, why: string): FactParseError {
  const field = e instanceof FactParseError ? e.field : 'json';
  const prefix = `fact log line ${lineNo}: ${field}: `;
  const message = e instanceof Error ? e.message : String(e);
  const problem = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return new FactParseError(
    lineNo,
    field,
    `${problem}; it is the last line but not one a crash can leave (${why}), so it is not cut off: the file was changed by something else`,
  );
}

/** A copy of `a` twice as long. */
function grown(a: Int32Array): Int32Array {
  const more = new Int32Array(a.length * 2);
  more.set(a);
  return more;
}

/** Throws unless `fact.seq` follows the `count` facts before it. */
function checkSeq(count: number, fact: Fact, lineNo: number): void {
  if (fact.seq !== count + 1) {
    throw new FactParseError(lineNo, 'seq', `must be ${count + 1} (one more than the line before), got ${fact.seq}`);
  }
}

/** The error for a fact on line `lineNo` whose key an earlier fact already has. */
export function reusedKey(fact: Fact, lineNo: number): FactParseError {
  return new FactParseError(lineNo, 'key', `'${fact.key}' is already used by an earlier fact`);
}

/** JSON with object keys sorted, so equal values always encode the same way. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
