// A file the lsp tools would read that is not a regular file is refused at once, naming what it is:
// opening a FIFO for reading waits for a writer, and each such wait held one of the process's few
// file-system threads for good, so a few calls froze every file operation of the host. A file
// larger than any language server works on is refused the same way. Real typescript-language-server.
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LSP_FILE_BYTES } from '../src/shared/regular-file.js';
import { type LspHarness, lspHarness } from './lsp-support.js';

let h: LspHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('files that are not regular files', () => {
  it('a FIFO named like a source file is refused at once by every operation, and the tool still answers after', async () => {
    h = lspHarness('lsp-ts');
    execFileSync('mkfifo', [join(h.dir, 'pipe.ts')]);
    for (const args of [
      { operation: 'symbols', file: 'pipe.ts' },
      { operation: 'diagnostics', file: 'pipe.ts' },
      { operation: 'hover', file: 'pipe.ts', line: 1, symbol: 'x' },
      { operation: 'symbols', file: 'pipe.ts' },
      { operation: 'symbols', file: 'pipe.ts' },
      { operation: 'symbols', file: 'pipe.ts' },
    ]) {
      const started = Date.now();
      const r = await h.ask(args);
      expect(r.exitCode, JSON.stringify(args)).toBe(1);
      expect(r.output).toContain('FIFO (named pipe), not a regular file');
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    const fine = await h.ask({ operation: 'symbols', file: 'src/calc.ts' });
    expect(fine.exitCode, fine.output).toBe(0);
  }, 60_000);

  it('a file larger than the lsp tools read is refused, naming its size', async () => {
    h = lspHarness('lsp-ts');
    const fd = openSync(join(h.dir, 'huge.ts'), 'w');
    ftruncateSync(fd, MAX_LSP_FILE_BYTES + 1);
    closeSync(fd);
    const r = await h.ask({ operation: 'symbols', file: 'huge.ts' });
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain(
      `is ${MAX_LSP_FILE_BYTES + 1} bytes, more than the ${MAX_LSP_FILE_BYTES} the lsp tools read`,
    );
  }, 60_000);
});
