// Diagnostics on write against the real typescript-language-server when the file already had an
// error with the same message: the write's new copy is reported, the old one is not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspHarness, lspHarness } from './lsp-support.js';

const BROKEN = "Type 'string' is not assignable to type 'number'";
let h: LspHarness;
beforeAll(() => {
  h = lspHarness('lsp-ts');
});
afterAll(() => h.close());

const newOf = (r: { metadata?: unknown }) =>
  (r.metadata as { diagnostics: { new: { line: number; message: string }[] } }).diagnostics.new;

describe('a write repeating a message the file already had', () => {
  it('DIAG-02: a second copy of an existing error, written above it, is reported at its own line', async () => {
    const old = 'export const o: number = "already broken";\n';
    writeFileSync(join(h.dir, 'src/dup.ts'), old);
    const r = await h.write('src/dup.ts', `export const p: number = "new break";\n${old}`, 'run-dup');
    expect(r.output).toContain(`New diagnostics after this write (1):\nsrc/dup.ts:1: error typescript2322: ${BROKEN}`);
    expect(newOf(r)).toEqual([expect.objectContaining({ line: 1 })]);
  }, 60_000);

  it('DIAG-02: in an open file, a copy written below the old error is reported; the old one is not', async () => {
    const text = 'export const a: number = "one";\nexport const b = 1;\n';
    await h.write('src/dup2.ts', text, 'run-open-a');
    const r = await h.write('src/dup2.ts', `${text}export const c: number = "two";\n`, 'run-open-b');
    expect(newOf(r)).toEqual([expect.objectContaining({ line: 3, message: expect.stringContaining(BROKEN) })]);
    // Removing a copy and adding nothing reports nothing.
    const fewer = await h.write('src/dup2.ts', text, 'run-open-c');
    expect(newOf(fewer)).toEqual([]);
  }, 60_000);
});
