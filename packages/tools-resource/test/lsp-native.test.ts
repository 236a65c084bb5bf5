// The lsp pack against the language servers found on PATH: gopls (Go), clangd (C) and
// rust-analyzer (Rust). Each suite runs when its server resolves and runs here; otherwise it is
// skipped, and its title says which binary is missing and why.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverById } from '../src/lsp.js';
import { type LspHarness, lspHarness, until } from './lsp-support.js';

/** Why the server `id` cannot run here, or undefined when it can. */
function missing(id: string): string | undefined {
  const r = serverById(id)!.resolve();
  return 'missing' in r ? r.missing : undefined;
}
const title = (name: string, reason: string | undefined) =>
  reason === undefined ? name : `${name} (skipped: ${reason})`;

const GO =
  missing('go') ??
  (spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : "'go' is not on PATH (gopls loads packages with it)");
const C = missing('cpp');
const RUST = missing('rust');

describe.skipIf(GO !== undefined)(title('lsp on Go (gopls)', GO), () => {
  let h: LspHarness;
  beforeAll(() => {
    h = lspHarness('lsp-go');
  });
  afterAll(() => h.close());

  it('LSP-05/06/07/08/09: diagnostics, definition, references, hover and symbols from gopls', async () => {
    expect((await h.ask({ operation: 'diagnostics', file: 'main.go' })).output).toBe(
      'No errors or warnings in main.go',
    );
    const d = await h.ask({ operation: 'definition', file: 'main.go', line: 10, symbol: 'Greet' });
    expect(d.output).toContain('greet/greet.go:4: func Greet(name string) string {');
    const r = await h.ask({ operation: 'references', file: 'greet/greet.go', line: 4, symbol: 'Greet' });
    expect(r.metadata?.total).toBe(3);
    expect(r.output).toContain('main.go:10: fmt.Println(greet.Greet("world"))');
    expect(r.output).toContain('other.go:5: var hi = greet.Greet');
    const hover = await h.ask({ operation: 'hover', file: 'main.go', line: 10, symbol: 'Greet' });
    expect(hover.output).toContain('func greet.Greet(name string) string');
    expect(hover.output).toContain('Greet says hello to name.');
    const s = await h.ask({ operation: 'symbols', file: 'greet/greet.go' });
    expect(s.output).toContain('greet/greet.go:4: function Greet');
    const status = await h.ask({ operation: 'status' });
    expect(status.output).toMatch(/go root=\. running/);
  });

  it('DIAG-02/04: a Go type error is reported by the write that made it, once', async () => {
    const broken = 'package main\n\nimport "example.com/fx/greet"\n\nvar hi int = greet.Greet\n';
    const r = await h.write('other.go', broken, 'go-run');
    expect(r.output).toMatch(/New diagnostics after this write \(1\):\nother\.go:5: error .*cannot use greet\.Greet/);
    const moved = await h.write('other.go', broken.replace('\nvar hi', '\n\n\n\n\nvar hi'), 'go-run');
    expect(moved.output).toBe('Wrote other.go');
    await h.write('other.go', 'package main\n\nimport "example.com/fx/greet"\n\nvar hi = greet.Greet\n', 'go-run');
  });

  it('RENAME-03: lsp_rename renames a Go function across three files and the module still builds', async () => {
    const r = await h.rename({ file: 'greet/greet.go', line: 4, symbol: 'Greet', new_name: 'Welcome' });
    expect(r.exitCode).toBe(0);
    expect([...(r.metadata as { changed_paths: string[] }).changed_paths].sort()).toEqual([
      'greet/greet.go',
      'main.go',
      'other.go',
    ]);
    expect(readFileSync(join(h.dir, 'other.go'), 'utf8')).toContain('var hi = greet.Welcome');
    const build = spawnSync('go', ['build', './...'], { cwd: h.dir, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  });
});

describe.skipIf(C !== undefined)(title('lsp on C (clangd)', C), () => {
  let h: LspHarness;
  beforeAll(() => {
    h = lspHarness('lsp-c');
    const entries = ['greet.c', 'main.c'].map((file) => ({
      directory: h.dir,
      file,
      arguments: ['cc', '-std=c11', '-c', file],
    }));
    writeFileSync(join(h.dir, 'compile_commands.json'), JSON.stringify(entries));
  });
  afterAll(() => h.close());

  it('LSP-05/06/07/08/09: diagnostics, definition into a header, references across files, hover, symbols', async () => {
    expect((await h.ask({ operation: 'diagnostics', file: 'main.c' })).output).toBe('No errors or warnings in main.c');
    const d = await h.ask({ operation: 'definition', file: 'main.c', line: 4, symbol: 'greet' });
    // The declaration in the header, or the definition once the background index knows greet.c.
    expect(d.output).toMatch(
      /greet\.h:5: int greet\(const char \*name\);|greet\.c:4: int greet\(const char \*name\) \{/,
    );
    // Files never opened are found once clangd's background index has read compile_commands.json.
    const r = await until(
      () => h.ask({ operation: 'references', file: 'main.c', line: 4, symbol: 'greet' }),
      (x) => x.output.includes('greet.c:4:'),
    );
    expect(r.output).toContain('greet.c:4: int greet(const char *name) {');
    expect(r.output).toContain('main.c:5: return greet("again") > 0 ? 0 : 1;');
    const hover = await h.ask({ operation: 'hover', file: 'main.c', line: 4, symbol: 'greet' });
    expect(hover.output).toContain('Says hello to name.');
    expect((await h.ask({ operation: 'symbols', file: 'greet.c' })).output).toContain('greet.c:4: function greet');
  });

  it('DIAG-02/03: a C error is reported by the write that made it; fixed and re-broken in a new run, again', async () => {
    const original = readFileSync(join(h.dir, 'main.c'), 'utf8');
    const text = '#include "greet.h"\n\nint main(void) {\n  greet("world");\n  return missing_count;\n}\n';
    const r = await h.write('main.c', text, 'c-run-1');
    expect(r.output).toMatch(
      /New diagnostics after this write \(1\):\nmain\.c:5: error .*undeclared identifier 'missing_count'/,
    );
    expect((await h.write('main.c', text.replace('\n  return', '\n\n\n\n\n  return'), 'c-run-1')).output).toBe(
      'Wrote main.c',
    );
    expect((await h.write('main.c', original, 'c-run-2')).output).toBe('Wrote main.c');
    expect((await h.write('main.c', text, 'c-run-2')).output).toMatch(/main\.c:5: error .*missing_count/);
    await h.write('main.c', original, 'c-run-2');
  });

  it('RENAME-03: lsp_rename renames a C function in the header and both sources, which still compile', async () => {
    await until(
      () => h.ask({ operation: 'references', file: 'main.c', line: 4, symbol: 'greet' }),
      (x) => x.output.includes('greet.c:4:') && x.output.includes('greet.h:5:'),
    );
    const r = await h.rename({ file: 'main.c', line: 4, symbol: 'greet', new_name: 'welcome' });
    expect(r.exitCode, r.output).toBe(0);
    expect([...(r.metadata as { changed_paths: string[] }).changed_paths].sort()).toEqual([
      'greet.c',
      'greet.h',
      'main.c',
    ]);
    expect(readFileSync(join(h.dir, 'greet.h'), 'utf8')).toContain('int welcome(const char *name);');
    if (existsSync('/usr/bin/cc')) {
      const cc = spawnSync('cc', ['-std=c11', '-o', join(h.dir, 'app'), 'greet.c', 'main.c'], {
        cwd: h.dir,
        encoding: 'utf8',
      });
      expect(cc.status, cc.stderr).toBe(0);
    }
  }, 60_000);
});

describe.skipIf(RUST !== undefined)(title('lsp on Rust (rust-analyzer)', RUST), () => {
  let h: LspHarness;
  beforeAll(() => {
    h = lspHarness('lsp-rs');
  });
  afterAll(() => h.close());

  it('LSP-06/07/08: definition, references and hover from rust-analyzer once it has loaded the crate', async () => {
    const d = await until(
      () => h.ask({ operation: 'definition', file: 'src/main.rs', line: 5, symbol: 'greet' }),
      (x) => x.output.includes('src/greet.rs:'),
      60_000,
    );
    expect(d.output).toContain('src/greet.rs:2: pub fn greet(name: &str) -> String {');
    const r = await h.ask({ operation: 'references', file: 'src/greet.rs', line: 2, symbol: 'greet' });
    expect(r.output).toContain('src/main.rs:5: println!("{}", greet("world"));');
    const hover = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    expect(hover.output).toContain('Says hello to name.');
  }, 90_000);

  it('RENAME-03: lsp_rename renames a Rust function across files', async () => {
    const r = await h.rename({ file: 'src/greet.rs', line: 2, symbol: 'greet', new_name: 'welcome' });
    expect(r.exitCode, r.output).toBe(0);
    expect(readFileSync(join(h.dir, 'src/main.rs'), 'utf8')).toContain('println!("{}", welcome("world"));');
  }, 60_000);
});
