// A script that used eval (a Python kernel) or lsp (a language server) and never closed its
// session ends on its own, as the README promises: an idle kernel or server holds no event loop,
// and the exit hook kills it, so nothing of it is left running either. Real processes.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempRepo } from './kit.js';

/** Runs the fixture; resolves with its output and the milliseconds from its last line to its exit. */
function runScript(dir: string, tool: string): Promise<{ out: string; afterEnd: number; code: number | null }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'resource-no-close.mjs'), dir, tool], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let ended = 0;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (ended === 0 && out.includes('end of script')) ended = Date.now();
  });
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ out, afterEnd: ended === 0 ? Number.POSITIVE_INFINITY : Date.now() - ended, code });
    }),
  );
}

describe('a script that never closes its session', () => {
  it('with an eval kernel started, ends on its own right after its last line', async () => {
    const r = await runScript(tempRepo(), 'eval');
    expect(r.out).toContain('0 42');
    expect(r.code, r.out).toBe(0);
    expect(r.afterEnd, r.out).toBeLessThan(5_000);
    expect(r.out).not.toContain('Closing file descriptor');
  }, 40_000);

  it('with a language server started, ends on its own right after its last line', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":true}}');
    writeFileSync(join(dir, 'a.ts'), 'export const x = 1;\nconst y: number = x;\n');
    const r = await runScript(dir, 'lsp');
    expect(r.out).toMatch(/^0 /);
    expect(r.code, r.out).toBe(0);
    expect(r.afterEnd, r.out).toBeLessThan(5_000);
  }, 40_000);
});
