import { describe, expect, it } from 'vitest';
import { FactParseError } from './errors.js';
import { encodeFact, type Fact, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';

// A log's lines as the store writes them are `{...}` and LF; a crash can leave only a prefix of
// such a line (maybe followed by NUL bytes). A file another program changed is refused by line,
// and its last line is never cut off as if a crash had left it.

const fact = (seq: number): Fact => ({
  seq,
  type: 'user.message',
  key: `u${seq}`,
  cause: null,
  payload: { text: `line ${seq}\r\nwith a CR inside`, source: 'user' },
});
const three = [1, 2, 3].map((n) => encodeFact(fact(n)));

/** The error parseLog and FactLog.parse both throw for `text`. */
function refusal(text: string): FactParseError {
  let a: unknown;
  let b: unknown;
  try {
    parseLog(text);
  } catch (e) {
    a = e;
  }
  try {
    FactLog.parse(text);
  } catch (e) {
    b = e;
  }
  expect(a).toBeInstanceOf(FactParseError);
  expect(String(b)).toBe(String(a));
  return a as FactParseError;
}

describe('the shape of a log line', () => {
  it('a log saved with CRLF line endings is refused on line 1, saying CRLF, with the repair', () => {
    const e = refusal(three.map((l) => `${l}\r\n`).join(''));
    expect([e.line, e.field, e.code]).toEqual([1, 'line', 'FACT_PARSE']);
    expect(e.message).toMatch(/carriage return \(CRLF line endings\).*convert it back to LF/);
    // Also when only the last line has lost its LF.
    expect(refusal(`${three[0]}\n${three[1]}\r`).line).toBe(2);
  });

  it('a log saved with CR-only line endings is refused, not taken for one torn line and cut to nothing', () => {
    const e = refusal(three.map((l) => `${l}\r`).join(''));
    expect([e.line, e.field]).toEqual([1, 'json']);
    expect(e.message).toMatch(/not one a crash can leave \(it holds a carriage return/);
  });

  it('whitespace around a fact, and two facts joined on one last line, are refused by line', () => {
    expect(refusal(`${three[0]}\n ${three[1]}\n`).line).toBe(2);
    expect(refusal(`${three[0]}\n${three[1]}\t\n`).message).toMatch(/line 2: line: has whitespace/);
    expect(refusal(`${three[0]}\n${three[1]}  `).line).toBe(2);
    const joined = refusal(`${three[0]}\n${three[1]}${three[2]}`);
    expect(joined.line).toBe(2);
    expect(joined.message).toMatch(/another begins without a line break/);
    expect(refusal(`${three[0]}\nnot a fact`).message).toMatch(/does not begin as a fact does/);
  });

  it('what a crash can leave is still cut off: a prefix of a line, NUL bytes, or both', () => {
    const head = `${three[0]}\n${three[1]}\n`;
    for (const tail of [three[2]!.slice(0, 1), three[2]!.slice(0, 40), '\0\0\0\0', `${three[2]!.slice(0, 30)}\0\0`]) {
      const parsed = parseLog(head + tail);
      expect(parsed.facts).toHaveLength(2);
      expect(parsed.torn?.validLength).toBe(head.length);
      expect(FactLog.parse(head + tail).log.length).toBe(2);
    }
    // A complete line in another field order is still a fact; its prefix is still a torn write.
    const other = JSON.stringify({ type: 'user.message', seq: 3, key: 'u3', cause: null, payload: fact(3).payload });
    expect(parseLog(`${head}${other}\n`).facts).toHaveLength(3);
    expect(parseLog(head + other.slice(0, 25)).torn?.line).toBe(3);
  });

  it('a complete JSON object without a final LF that is no fact is refused by line, never cut off as torn', () => {
    const head = `${three[0]}\n${three[1]}\n`;
    const changed = JSON.stringify({ ...fact(3), extra: 1 });
    const refused = refusal(head + changed);
    expect(refused.line).toBe(3);
    expect(refused.message).toMatch(/complete JSON object, which no write cut short is/);
    expect(refused.message).toMatch(/extra/);
    // The same fact, valid, is kept (only its LF is missing).
    expect(parseLog(head + three[2]).facts).toHaveLength(3);
  });
});
