import { describe, expect, it } from 'vitest';
import { introducedDiagnostics } from './introduced.js';
import type { LspDiagnostic } from './protocol.js';

const at = (line: number, message = "Type 'string' is not assignable to type 'number'."): LspDiagnostic => ({
  range: { start: { line, character: 4 }, end: { line, character: 9 } },
  severity: 1,
  code: 2322,
  message,
});

describe('the diagnostics a write introduced', () => {
  it('DIAG-02: a second copy of a message the file already had is new, counted per message', () => {
    expect(introducedDiagnostics([at(3)], [at(3), at(9)])).toEqual([at(9)]);
    expect(introducedDiagnostics([at(3), at(5)], [at(3), at(5), at(7)])).toEqual([at(7)]);
    expect(introducedDiagnostics([at(3)], [at(3), at(3, 'other')])).toEqual([at(3, 'other')]);
  });

  it('DIAG-04: an error that only moved is not new, and fewer copies than before are nothing new', () => {
    expect(introducedDiagnostics([at(3)], [at(7)])).toEqual([]);
    expect(introducedDiagnostics([at(3), at(5)], [at(8)])).toEqual([]);
  });

  it('the copy far from every old one is reported, the one nearest an old one kept as moved', () => {
    expect(introducedDiagnostics([at(10)], [at(0), at(12)])).toEqual([at(0)]);
  });

  it('with the texts known, an old error pushed down by lines written above it keeps its partner', () => {
    const before = 'export const o: number = "x";\n';
    const after = 'export const p: number = "y";\nexport const o: number = "x";\n';
    // Without the texts the nearest pairing takes line 0 for the old error.
    expect(introducedDiagnostics([at(0)], [at(0), at(1)])).toEqual([at(1)]);
    expect(introducedDiagnostics([at(0)], [at(0), at(1)], { before, after })).toEqual([at(0)]);
  });
});
