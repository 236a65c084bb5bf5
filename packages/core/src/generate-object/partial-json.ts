/**
 * Parsing of JSON text that may be cut short, for partial-object snapshots while a value
 * streams in, and the strict check that a streamed value is complete and valid.
 */
import type { JsonValue } from '../tools/json-schema.js';

/** The value read so far; `complete` when the text held one whole JSON value and nothing else. */
export interface PartialJson {
  readonly value: JsonValue;
  readonly complete: boolean;
}

class Scan {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  get eof(): boolean {
    return this.i >= this.s.length;
  }
}

/** `value` undefined: nothing usable yet. `done` false: the text ended inside this value. */
type Read = { value: JsonValue | undefined; done: boolean };

const NOT_JSON = Symbol('not-json');

/**
 * Reads the longest usable prefix of `text` as a JSON value: open strings, arrays and objects
 * are closed, a key without a value and an unfinished literal are dropped. Returns `undefined`
 * when the text is not the start of a JSON value.
 */
export function parsePartialJson(text: string): PartialJson | undefined {
  const scan = new Scan(text);
  try {
    const read = value(scan);
    if (read.value === undefined) return undefined;
    scan.ws();
    return { value: read.value, complete: read.done && scan.eof };
  } catch (e) {
    if (e === NOT_JSON) return undefined;
    throw e;
  }
}

function value(scan: Scan): Read {
  scan.ws();
  if (scan.eof) return { value: undefined, done: false };
  const c = scan.s[scan.i]!;
  if (c === '{') return object(scan);
  if (c === '[') return array(scan);
  if (c === '"') return string(scan);
  if (c === '-' || (c >= '0' && c <= '9')) return number(scan);
  for (const [word, v] of [
    ['true', true],
    ['false', false],
    ['null', null],
  ] as const) {
    const rest = scan.s.slice(scan.i, scan.i + word.length);
    if (rest === word) {
      scan.i += word.length;
      return { value: v, done: true };
    }
    if (word.startsWith(rest) && scan.i + rest.length === scan.s.length) {
      scan.i = scan.s.length;
      return { value: undefined, done: false };
    }
  }
  throw NOT_JSON;
}

function object(scan: Scan): Read {
  const out: Record<string, JsonValue> = {};
  scan.i++;
  for (;;) {
    scan.ws();
    if (scan.eof) return { value: out, done: false };
    if (scan.s[scan.i] === '}') {
      scan.i++;
      return { value: out, done: true };
    }
    if (scan.s[scan.i] === ',') {
      scan.i++;
      continue;
    }
    if (scan.s[scan.i] !== '"') throw NOT_JSON;
    const key = string(scan);
    if (!key.done) return { value: out, done: false };
    scan.ws();
    if (scan.eof) return { value: out, done: false };
    if (scan.s[scan.i] !== ':') throw NOT_JSON;
    scan.i++;
    const v = value(scan);
    if (v.value !== undefined) out[key.value as string] = v.value;
    if (!v.done) return { value: out, done: false };
  }
}

function array(scan: Scan): Read {
  const out: JsonValue[] = [];
  scan.i++;
  for (;;) {
    scan.ws();
    if (scan.eof) return { value: out, done: false };
    if (scan.s[scan.i] === ']') {
      scan.i++;
      return { value: out, done: true };
    }
    if (scan.s[scan.i] === ',') {
      scan.i++;
      continue;
    }
    const v = value(scan);
    if (v.value !== undefined) out.push(v.value);
    if (!v.done) return { value: out, done: false };
  }
}

function string(scan: Scan): Read {
  const start = scan.i;
  scan.i++;
  for (; scan.i < scan.s.length; scan.i++) {
    const c = scan.s[scan.i];
    if (c === '\\') scan.i++;
    else if (c === '"') {
      scan.i++;
      try {
        return { value: JSON.parse(scan.s.slice(start, scan.i)) as string, done: true };
      } catch {
        throw NOT_JSON;
      }
    }
  }
  // Cut inside the string: close it, dropping an unfinished escape sequence.
  let body = scan.s.slice(start + 1);
  body = body.replace(/\\u[0-9a-fA-F]{0,3}$/, '').replace(/(^|[^\\])(\\\\)*\\$/, (m) => m.slice(0, -1));
  scan.i = scan.s.length;
  try {
    return { value: JSON.parse(`"${body}"`) as string, done: false };
  } catch {
    return { value: undefined, done: false };
  }
}

function number(scan: Scan): Read {
  const m = /^-?\d*(\.\d*)?([eE][+-]?\d*)?/.exec(scan.s.slice(scan.i))!;
  scan.i += m[0].length;
  const n = Number(m[0]);
  const valid = m[0] !== '' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(m[0]);
  if (scan.eof) {
    // A number at the very end may still grow; show its usable prefix.
    const usable = /^-?\d+(\.\d+)?/.exec(m[0]);
    return { value: usable ? Number(usable[0]) : undefined, done: false };
  }
  if (!valid || !Number.isFinite(n)) throw NOT_JSON;
  return { value: n, done: true };
}
