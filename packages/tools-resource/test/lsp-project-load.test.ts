// Project-wide operations on a cold language server wait for it to load the project: pyright
// answers references and renames from the files it has found so far, so the first call of a
// session used to rename the declaration alone (reported as a success) and list one reference.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { serverById } from '../src/lsp.js';
import { ProjectLoad, PYRIGHT_LOAD_LOG } from '../src/lsp/project-load.js';
import { type LspHarness, lspHarness } from './lsp-support.js';

const PYRIGHT = (() => {
  const r = serverById('python')!.resolve();
  return 'missing' in r ? r.missing : undefined;
})();
const title = (name: string) => (PYRIGHT === undefined ? name : `${name} (skipped: ${PYRIGHT})`);

/** A Python project whose `helper` (a.py) is imported by c.py and pkg/b.py. */
function pythonProject(h: LspHarness): void {
  mkdirSync(join(h.dir, 'pkg'));
  writeFileSync(join(h.dir, 'pyproject.toml'), '');
  writeFileSync(join(h.dir, 'a.py'), 'def helper():\n    return 1\n');
  writeFileSync(join(h.dir, 'pkg/b.py'), 'from a import helper\nprint(helper())\n');
  writeFileSync(join(h.dir, 'c.py'), 'from a import helper\nx = helper()\n');
}

describe.skipIf(PYRIGHT !== undefined)(title('a cold pyright answers from the whole project'), () => {
  let h: LspHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('RENAME-03: the first call of a session, lsp_rename, renames every importer', async () => {
    h = lspHarness(undefined);
    pythonProject(h);
    const r = await h.rename({ file: 'a.py', line: 1, symbol: 'helper', new_name: 'assist' });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toContain('in 3 files: a.py, c.py, pkg/b.py');
    expect(readFileSync(join(h.dir, 'c.py'), 'utf8')).toBe('from a import assist\nx = assist()\n');
    expect(readFileSync(join(h.dir, 'pkg/b.py'), 'utf8')).toBe('from a import assist\nprint(assist())\n');
  }, 60_000);

  it('LSP-07: the first call of a session, references, lists every usage', async () => {
    h = lspHarness(undefined);
    pythonProject(h);
    const r = await h.ask({ operation: 'references', file: 'a.py', line: 1, symbol: 'helper' });
    expect(r.output.split('\n')[0]).toBe('5 locations:');
    expect(r.output).toContain('pkg/b.py:2: print(helper())');
    expect(r.metadata?.incomplete).toBeUndefined();
  }, 60_000);
});

/** A connection that delivers the log messages and progress a test sends. */
function fakeConnection() {
  let log: (p: { message: string }) => void = () => {};
  let progress: (p: { token: string; value: unknown }) => void = () => {};
  const connection = {
    onNotification: (_method: string, handler: typeof log) => {
      log = handler;
    },
    onUnhandledProgress: (handler: typeof progress) => {
      progress = handler;
    },
  } as unknown as MessageConnection;
  return {
    connection,
    log: (message: string) => log({ message }),
    progress: (token: string, kind: string) => progress({ token, value: { kind } }),
  };
}

describe('the loading state of a server', () => {
  const never = new AbortController().signal;

  it("is loading until pyright logs that it found the project's files, and again after it reloads its configuration", async () => {
    const load = new ProjectLoad(PYRIGHT_LOAD_LOG);
    const c = fakeConnection();
    load.attach(c.connection);
    expect(load.loaded).toBe(false);
    const waited = load.wait(never, 5_000);
    c.log('Assuming Python version 3.11');
    expect(load.loaded).toBe(false);
    c.log('Found 3 source files');
    expect(await waited).toBe(true);
    c.log('Loading pyproject.toml file at /w/pyproject.toml');
    expect(load.loaded).toBe(false);
    c.log('No source files found.');
    expect(load.loaded).toBe(true);
  });

  it('is loading while work-done progress the server began has not ended', async () => {
    const load = new ProjectLoad();
    const c = fakeConnection();
    load.attach(c.connection);
    expect(load.loaded).toBe(true);
    c.progress('index', 'begin');
    c.progress('index', 'report');
    expect(load.loaded).toBe(false);
    expect(load.doing).toBe('still working (progress under way)');
    const waited = load.wait(never, 5_000);
    c.progress('index', 'end');
    expect(await waited).toBe(true);
  });

  it('a wait ends at its cap, on abort, or when the server exits', async () => {
    const load = new ProjectLoad(PYRIGHT_LOAD_LOG);
    load.attach(fakeConnection().connection);
    const t0 = performance.now();
    expect(await load.wait(never, 50)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2_000);
    const abort = new AbortController();
    const aborted = load.wait(abort.signal, 60_000);
    abort.abort();
    expect(await aborted).toBe(false);
    const exited = load.wait(never, 60_000);
    load.gone();
    expect(await exited).toBe(true);
  });
});
