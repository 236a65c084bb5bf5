// The lsp answers of servers that do not list their project's files (clangd, gopls,
// rust-analyzer, dart) and files outside the workspace: `read` refuses such a file, so a
// diagnostic about it, a text naming it or a hover on a symbol defined in it is withheld with a
// note saying why. Judged on the answer for every server, and, for clangd, on the includes the
// server resolved (an absolute path, a `../` climb, a link inside the workspace leading out).
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource, serverById } from '../src/lsp.js';
import { OutsideCheck, withholdOutside } from '../src/lsp/outside-text.js';
import { manifestOutside, sourceOutside } from '../src/lsp/project-outside.js';
import type { LspDiagnostic } from '../src/lsp/protocol.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const SECRET = 'AWS_SECRET_wJalrXUtnFEMI';
let top: string;
let ws: string;

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-outside-text-')));
  ws = join(top, 'repo');
  writeTree(top, { 'out/secret.txt': `${SECRET} K7MDENG;\n`, 'out/x.h': `#define KEY "${SECRET}"\n` });
  writeTree(ws, { 'compile_flags.txt': '-xc\n', 'src/own.h': 'int own(void);\n' });
  symlinkSync(join(top, 'out', 'secret.txt'), join(ws, 'src', 'link.h'));
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

const diag = (message: string, extra: Record<string, unknown> = {}): LspDiagnostic =>
  ({
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    severity: 1,
    message,
    ...extra,
  }) as LspDiagnostic;

describe('a diagnostic judged on its own text, for every server', () => {
  it('LSP-05: one naming a file outside (absolute, file URI, ../ climb, link inside leading out) is withheld; inside, installed or missing files are not', () => {
    const check = new OutsideCheck(ws);
    const file = join(ws, 'src', 'a.c');
    const withheld = [
      `In included file: unknown type name '${SECRET}'\n\n${join(top, 'out', 'secret.txt')}:1:1: note: error occurred here`,
      `expanded from file://${join(top, 'out', 'x.h')}`,
      `error in ../../out/x.h:1:9`,
      `In included file: unknown type name '${SECRET}'\n\n${join(ws, 'src', 'link.h')}:1:1: note: error occurred here`,
      `In included file: unknown type name '${SECRET}'`,
    ];
    for (const message of withheld) {
      const r = withholdOutside([diag(message)], file, check);
      expect(r.list[0]!.message, message).toBe('(message withheld)');
      expect(r.why, message).toMatch(/outside the workspace|not shown to be inside the workspace/);
    }
    const related = diag('conflicting types', {
      relatedInformation: [
        { location: { uri: `file://${join(top, 'out', 'x.h')}`, range: diag('').range }, message: 'here' },
      ],
    });
    expect(withholdOutside([related], file, check).why).toContain(join(top, 'out', 'x.h'));
    const shown = [
      `In included file: unknown type name 'x'\n\n${join(ws, 'src', 'own.h')}:1:1: note: error occurred here`,
      "'/nowhere/missing.h' file not found",
      '/usr/include/stdio.h:1:1: note: declared here',
      "In included file: unknown type name 'x'\n\n/usr/include/stdio.h:1:1: note: error occurred here",
      'expected ; and/or } after declaration',
    ];
    for (const message of shown)
      expect(withholdOutside([diag(message)], file, check), message).toEqual({ list: [diag(message)] });
  });
});

describe('a project pointing its server outside, read from its own files (gopls, rust-analyzer, Dart, clangd)', () => {
  it('LSP-05: manifests naming a folder outside count; their own folders, installed ones and remote modules do not', () => {
    const check = new OutsideCheck(ws);
    const cases: [string, string, boolean][] = [
      ['go.mod', 'module a\n\nreplace example.com/x => ../out\n', true],
      [
        'go.mod',
        'module a\n\nreplace (\n\texample.com/x => ./src\n\texample.com/y => example.com/z v1.0.0\n)\n',
        false,
      ],
      ['go.work', 'go 1.21\n\nuse (\n\t.\n\t../out\n)\n', true],
      ['Cargo.toml', '[dependencies]\nx = { path = "../out" }\n', true],
      ['Cargo.toml', '[lib]\npath = "src/lib.rs"\n', false],
      ['pubspec.yaml', 'dependencies:\n  x:\n    path: ../out\n', true],
      ['compile_flags.txt', `-xc\n-I${join(top, 'out')}\n`, true],
      ['compile_flags.txt', '-xc\n-I\n../out\n', true],
      ['compile_flags.txt', '-xc\n-Isrc\n-isystem\n/usr/include\n', false],
      [
        'compile_commands.json',
        JSON.stringify([{ directory: join(top, 'out'), file: 'a.c', arguments: ['cc', 'a.c'] }]),
        true,
      ],
      [
        'compile_commands.json',
        JSON.stringify([{ directory: ws, file: 'a.c', command: 'cc -I ..//out -c a.c' }]),
        true,
      ],
      ['compile_commands.json', JSON.stringify([{ directory: ws, file: 'a.c', command: 'cc -Isrc -c a.c' }]), false],
    ];
    for (const [file, text, outside] of cases) {
      const root = mkdtempSync(join(ws, 'p-'));
      writeTree(root, { [file]: text.replaceAll('../out', join('..', '..', 'out')) });
      const why = manifestOutside(root, check);
      if (outside) expect(why, `${file}: ${text}`).toContain(`${file} points the server at ${join(top, 'out')}`);
      else expect(why, `${file}: ${text}`).toBeUndefined();
      rmSync(root, { recursive: true });
    }
  });

  it('LSP-05: sources including or importing a file outside count, also through the workspace’s own headers', () => {
    const check = new OutsideCheck(ws);
    writeTree(ws, {
      'src/chain.h': '#include "link.h"\n',
      'src/lib.rs': 'const K: &str = include_str!("../../out/secret.txt");\n',
      'src/m.rs': '#[path = "../../out/x.rs"]\nmod x;\n',
      'src/a.dart': `import 'file://${join(top, 'out', 'x.h')}';\n`,
      'src/b.dart': "import 'package:x/x.dart';\nimport 'dart:io';\n",
    });
    writeTree(top, { 'out/x.rs': 'pub const S: &str = "s";\n' });
    const at = (f: string) => join(ws, 'src', f);
    expect(sourceOutside('#include "chain.h"\n', at('t.c'), check)).toContain(
      `includes ${join(top, 'out', 'secret.txt')}`,
    );
    expect(sourceOutside('#include "../../out/x.h"\n', at('t.c'), check)).toContain('outside the workspace');
    expect(sourceOutside('#include <stdio.h>\n#include "own.h"\n', at('t.c'), check)).toBeUndefined();
    for (const f of ['lib.rs', 'm.rs', 'a.dart'])
      expect(sourceOutside(readFileSync(at(f), 'utf8'), at(f), check), f).toContain('outside the workspace');
    expect(sourceOutside(readFileSync(at('b.dart'), 'utf8'), at('b.dart'), check)).toBeUndefined();
  });
});

const CPP = (() => {
  const r = serverById('cpp')!.resolve();
  return 'missing' in r ? r.missing : undefined;
})();

describe.skipIf(CPP !== undefined)(
  `clangd and includes outside the workspace${CPP === undefined ? '' : ` (skipped: ${CPP})`}`,
  () => {
    let lsp: LspResource;
    let call: Caller;
    beforeAll(() => {
      lsp = openLspResource();
      call = governed(ws, lsp, {});
    });
    afterAll(() => lsp.close());

    it('LSP-05/08: write and diagnostics show no problem, hover nothing, while an include outside brings a file in (absolute, ../, a link), with the reason', async () => {
      const sources: Record<string, string> = {
        'src/a.c': `#include "${join(top, 'out', 'secret.txt')}"\nint main(void) { return 0; }\n`,
        'src/b.c': '#include "../../out/secret.txt"\nint main(void) { return 0; }\n',
        'src/c.c': '#include "link.h"\nint main(void) { return 0; }\n',
        'src/d.c': `#include "${join(top, 'out', 'x.h')}"\nconst char *k = KEY;\nint n = KEY;\n`,
      };
      for (const [file, content] of Object.entries(sources)) {
        // Which lines carry an error could spell the file out: none but syntax errors is shown.
        const w = await call('write', { file_path: file, content });
        expect(w.output, file).toContain(`Diagnostics not shown for ${file} (but for syntax errors)`);
        expect(w.output, file).not.toContain(SECRET);
        expect(w.output, file).toMatch(/outside the workspace, which this session may not read/);
        const d = await call('lsp', { operation: 'diagnostics', file });
        expect(d.output, file).not.toMatch(/\.c:\d+: error/);
        expect(d.output, file).not.toContain(SECRET);
        expect(d.metadata?.not_shown, file).toMatch(/outside the workspace/);
      }
      const h = await call('lsp', { operation: 'hover', file: 'src/d.c', line: 2, symbol: 'KEY' });
      expect(h.output).toContain("No hover shown for 'KEY'");
      expect(h.output).not.toContain(SECRET);
      expect(h.metadata?.withheld).toMatch(/outside the workspace/);
    }, 60_000);

    it('a file including only its own headers answers in full', async () => {
      await call('write', { file_path: 'src/e.c', content: '#include "own.h"\nint e(void) { return own(1); }\n' });
      const d = await call('lsp', { operation: 'diagnostics', file: 'src/e.c' });
      expect(d.output).toContain('Too many arguments');
      expect(d.metadata?.withheld).toBeUndefined();
    }, 60_000);
  },
);

const GO = (() => {
  const r = serverById('go')!.resolve();
  return 'missing' in r ? r.missing : undefined;
})();

describe.skipIf(GO !== undefined)(
  `gopls and a package file linked in from outside${GO === undefined ? '' : ` (skipped: ${GO})`}`,
  () => {
    let lsp: LspResource;
    let call: Caller;
    let mod: string;
    beforeAll(() => {
      mod = join(top, 'gomod');
      writeTree(top, { 'out/sec.go': `package main\n\nconst Secret = "${SECRET}"\n` });
      writeTree(mod, {
        'go.mod': 'module m\n\ngo 1.19\n',
        'main.go': 'package main\n\nfunc main() {}\n',
        'own.go': 'package main\n\nconst Own = "own-value-k2"\n',
      });
      lsp = openLspResource();
      call = governed(mod, lsp, {});
    });
    afterAll(() => lsp.close());

    it('write and diagnostics show no problem while the linked file is in the package; the package’s own files answer in full', async () => {
      const own = await call('write', {
        file_path: 'main.go',
        content: 'package main\n\nvar y int = Own\n\nfunc main() {}\n',
      });
      expect(own.output).toContain('own-value-k2');
      symlinkSync(join(top, 'out', 'sec.go'), join(mod, 'sec.go'));
      const w = await call('write', {
        file_path: 'main.go',
        content: 'package main\n\nvar x int = Secret\n\nfunc main() {}\n',
      });
      expect(w.output).toContain('Diagnostics not shown for main.go (but for syntax errors)');
      expect(w.output).not.toContain(SECRET);
      expect(w.output).toContain(`reads ${join(top, 'out', 'sec.go')} (sec.go links to it), outside the workspace`);
      const d = await call('lsp', { operation: 'diagnostics', file: 'main.go' });
      expect(d.output).not.toContain('main.go:3: error');
      expect(d.output).not.toContain(SECRET);
      expect(d.metadata?.not_shown).toContain('sec.go links to it');
    }, 90_000);
  },
);
