// A language server's temporary files: typescript-language-server makes a folder in the temporary
// folder at each start (for tsserver's cancellation pipes) and never removes it, so each server
// runs with a temporary folder of its own, removed when it stops, crashes or is killed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LspSupervisor } from '../src/lsp.js';
import { type LspHarness, lspHarness, until } from './lsp-support.js';

let scratch: string;
let saved: string | undefined;
let h: LspHarness | undefined;

beforeEach(() => {
  h = lspHarness('lsp-ts');
  // The server's folder is made in the temporary folder this process has when the server starts.
  scratch = mkdtempSync(join(tmpdir(), 'a3s-lsp-tmpdir-'));
  saved = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
});
afterEach(async () => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The processes whose environment points TMPDIR at `folder` (Linux `/proc`). */
function processesUsing(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`TMPDIR=${folder}`)) pids.push(+entry);
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

describe('a language server and the temporary folder', () => {
  it('a TypeScript server that started and was closed leaves nothing in the temporary folder', async () => {
    const r = await h!.ask({ operation: 'diagnostics', file: 'src/main.ts' });
    expect(r.exitCode).toBe(0);
    // While it runs, what it makes there is in one folder of its own.
    expect(readdirSync(scratch)).toEqual([expect.stringMatching(/^a3s-lsp-tmp-/)]);
    await h!.lsp.close();
    expect(readdirSync(scratch)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('a server that crashes has its folder removed as well', async () => {
    const sup = h!.lsp.supervisor(h!.dir) as LspSupervisor;
    await sup.clientFor(join(h!.dir, 'src/main.ts'));
    const [own] = readdirSync(scratch);
    expect(own).toMatch(/^a3s-lsp-tmp-/);
    const pids = processesUsing(join(scratch, own!));
    expect(pids.length).toBeGreaterThan(0);
    // Killed from outside, as a crash: no shutdown, no kill() of ours.
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const left = await until(
      async () => readdirSync(scratch),
      (l) => l.length === 0,
      5000,
    );
    expect(left).toEqual([]);
  });
});
