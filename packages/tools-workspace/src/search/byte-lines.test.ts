/**
 * Lines of a file without one string of the whole file (V8 strings stop near 512 MiB): slices
 * of whole lines for the JS engine, single lines for grep's context. The slice size is lowered
 * here so small inputs cross many slice boundaries; the real size only changes how many.
 */
import { describe, expect, it } from 'vitest';
import { linesAt, lineSlices } from './byte-lines.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The lines the old whole-string split gave: a final newline does not start another line. */
function wholeLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function sliced(text: string, max: number): string[] {
  const out: string[] = [];
  for (const s of lineSlices(enc(text), max)) {
    expect(s.firstLine).toBe(out.length + 1);
    out.push(...s.text.split('\n'));
  }
  return out;
}

describe('lineSlices', () => {
  const texts = [
    '',
    '\n',
    'a',
    'a\n',
    'a\n\n',
    '\n\nb',
    'one\r\ntwo\r\n',
    `${'x'.repeat(50)}\nshort\n${'y'.repeat(30)}`,
    'é✓😀\nçà\n',
  ];
  it.each(texts.map((t) => [JSON.stringify(t), t] as const))(
    '%s gives the same lines, whatever the slice size',
    (_, text) => {
      for (const max of [1, 2, 3, 7, 16, 1024]) expect(sliced(text, max)).toEqual(wholeLines(text));
    },
  );

  it('a many-line text is decoded in slices of about the given size', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const slices = [...lineSlices(enc(text), 100)];
    expect(slices.length).toBeGreaterThan(50);
    for (const s of slices) expect(s.text.length).toBeLessThanOrEqual(100);
    expect(slices.flatMap((s) => s.text.split('\n'))).toEqual(text.split('\n'));
  });
});

describe('linesAt', () => {
  it('decodes only the wanted lines, without line ends; lines past the end are absent', () => {
    const got = linesAt(enc('a\r\nb\nc\n'), new Set([1, 3, 4, 9]), 100);
    expect([...got.entries()]).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
  });

  it('cuts a long line to maxChars and names its full length in characters', () => {
    const line = `${'é'.repeat(30)}tail`;
    const got = linesAt(enc(`x\n${line}\ny`), new Set([2, 3]), 10);
    expect(got.get(2)).toBe(`${'é'.repeat(10)}… [line cut: 34 chars]`);
    expect(got.get(3)).toBe('y');
    // Multi-byte text longer than maxChars in bytes but not in characters is whole.
    expect(linesAt(enc('ééééé'), new Set([1]), 6).get(1)).toBe('ééééé');
  });
});
