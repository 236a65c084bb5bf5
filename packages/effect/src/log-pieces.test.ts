import { describe, expect, it } from 'vitest';
import { encodeFact, type Fact, type LogText, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';

// A reader may hand a log's text over in pieces (a large file decoded in small strings): every
// result and error must be those of the text joined, wherever the pieces are cut.

const fact = (seq: number): Fact => ({
  seq,
  type: 'user.message',
  key: `u${seq}`,
  cause: null,
  payload: { text: `${seq} ключ 🙂 ${'é'.repeat(seq % 7)}`, source: 'user' },
});
const body = Array.from({ length: 40 }, (_, i) => `${encodeFact(fact(i + 1))}\n`).join('');

/** `text` cut at the given offsets (sorted, deduplicated, inside the text). */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...new Set(at.filter((n) => n > 0 && n < text.length))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

/** What reading `text` gives: the facts and tail, or the error's message. */
function outcome(text: LogText): unknown {
  try {
    const parsed = parseLog(text);
    const log = FactLog.parse(text);
    return { parsed, keys: log.log.facts.map((f) => f.key), torn: log.torn, missing: log.missingFinalNewline };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Offsets just after each newline of `text`, and some others (a piece may end inside a line). */
function cuts(text: string, seed: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < text.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    if ((text[i - 1] === '\n' && x % 3 === 0) || x % 97 === 0) out.push(i);
  }
  return out;
}

const texts: Record<string, string> = {
  whole: body,
  'torn last line': `${body}${encodeFact(fact(41)).slice(0, 30)}`,
  'last line without its newline': `${body}${encodeFact(fact(41))}`,
  'blank lines after the last fact': `${body}\n  \n\n`,
  'a blank line inside': `${body}\n${encodeFact(fact(41))}\n`,
  'a bad seq': `${body}${encodeFact(fact(43))}\n`,
  'a reused key': `${body}${encodeFact({ ...fact(41), key: 'u3' })}\n`,
  'a line that is not JSON': `${body}{"seq":41,\n${encodeFact(fact(42))}\n`,
};

describe('a log read in pieces', () => {
  for (const [name, text] of Object.entries(texts))
    it(`${name}: the same facts, tail and errors as the text joined, wherever it is cut`, () => {
      const expected = outcome(text);
      for (let seed = 1; seed <= 12; seed++)
        expect(outcome(cut(text, cuts(text, seed))), `seed ${seed}`).toEqual(expected);
      expect(outcome([text])).toEqual(expected);
      expect(outcome(['', text, ''])).toEqual(expected);
      const lazy = function* () {
        yield* cut(text, cuts(text, 99));
      };
      expect(outcome({ [Symbol.iterator]: lazy })).toEqual(expected);
    });
});
