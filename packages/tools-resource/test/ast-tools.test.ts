// ast_grep, ast_edit and resolve on real files in a temporary folder, with real grammars.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AST_RESOURCE,
  type AstResource,
  astEditTool,
  astGrepTool,
  astToolPack,
  openAstResource,
  resolveTool,
} from '../src/ast.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

let dir: string;
let ast: AstResource;
let workspace: ReturnType<typeof diskWorkspace>;

function put(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}
const get = (path: string): string => readFileSync(join(dir, path), 'utf8');

function call(tool: Tool<never>, args: Record<string, unknown>): Promise<ToolResult> {
  const ctx = createToolContext({ workspace, resources: { [AST_RESOURCE]: ast } });
  return (tool as unknown as Tool<Record<string, unknown>>).execute(args, ctx);
}
const grep = (args: Record<string, unknown>) => call(astGrepTool as Tool<never>, args);
const edit = (args: Record<string, unknown>) => call(astEditTool as Tool<never>, args);
const resolve = (args: Record<string, unknown>) => call(resolveTool as Tool<never>, args);
const errorCode = (r: ToolResult) => (r.metadata?.error as { code?: string } | undefined)?.code;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-ast-'));
  workspace = diskWorkspace(dir);
  ast = await openAstResource();
  put('src/a.ts', 'dispose(x);\nfoo(1, 2);\nconst s = "dispose(x)";\n');
  put('src/b.ts', 'function f() {\n  dispose(\n    x,\n  );\n}\n');
  put('lib/c.py', 'dispose(x)\n# dispose(x)\n');
  put('.a3s/state.ts', 'dispose(x);\n');
});
afterEach(async () => {
  await ast.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ast pack', () => {
  it('TIER-01: each tool declares one tier; TIER-02: ast_grep read, ast_edit and resolve write', () => {
    expect(astToolPack.tools.map((t) => [t.name, t.tier])).toEqual([
      ['ast_grep', 'read'],
      ['ast_edit', 'write'],
      ['resolve', 'write'],
    ]);
    expect(astGrepTool.capabilities).toMatchObject({ readOnly: true, idempotent: true });
  });

  it('TIER-05: every tool requires the parser resource the pack provides, opened lazily', () => {
    for (const t of astToolPack.tools) expect(t.requires).toContain(AST_RESOURCE);
    expect(astToolPack.resources?.map((r) => [r.capability, r.opens])).toEqual([[AST_RESOURCE, 'lazy']]);
  });
});

describe('ast_grep', () => {
  it('ASTG-03: searches the workspace by default, skipping the private .a3s folder', async () => {
    const r = await grep({ pattern: 'dispose(x)', language: 'typescript' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('2 matches in 2 files');
    expect(r.output).toContain('src/a.ts:1: dispose(x)');
    expect(r.output).toContain('src/b.ts:2: dispose( …');
    expect(r.output).not.toContain('.a3s');
    expect(r.metadata).toMatchObject({ total: 2, files_with_matches: 2, next_cursor: null });
  });

  it('ASTG-03: max_results pages with a cursor until every match was shown once', async () => {
    put('src/many.ts', Array.from({ length: 7 }, (_, i) => `dispose(${i});`).join('\n'));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await grep({ pattern: 'dispose($A)', language: 'typescript', path: 'src', max_results: 3, cursor });
      expect(r.metadata?.total).toBe(9);
      for (const m of (r.metadata?.matches ?? []) as { path: string; line: number }[]) seen.push(`${m.path}:${m.line}`);
      cursor = (r.metadata?.next_cursor as string | null) ?? undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(9);
    const bad = await grep({ pattern: 'other($A)', language: 'typescript', cursor: 'eyJ2IjoxfQ' });
    expect(errorCode(bad)).toBe('AST_CURSOR');
  });

  it('ASTG-03: reports captures per match and structured matches for programs', async () => {
    const r = await grep({ pattern: 'foo($A, $B)', path: 'src/a.ts' });
    expect(r.output).toContain('src/a.ts:2: foo(1, 2)\n    $A = 1\n    $B = 2');
    expect(r.metadata?.matches).toEqual([
      { path: 'src/a.ts', line: 2, end_line: 2, text: 'foo(1, 2)', captures: { A: '1', B: '2' } },
    ]);
  });

  it('ASTG-04: infers the language from one file and requires it for a folder, listing the ids', async () => {
    const py = await grep({ pattern: 'dispose($X)', path: 'lib/c.py' });
    expect(py.metadata).toMatchObject({ language: 'python', total: 1 });
    const folder = await grep({ pattern: 'dispose($X)', path: 'lib' });
    expect(errorCode(folder)).toBe('AST_LANGUAGE');
    expect(folder.output).toContain('typescript, tsx, javascript, python');
    const unknown = await grep({ pattern: 'x', language: 'cobol' });
    expect(errorCode(unknown)).toBe('AST_LANGUAGE');
    expect(unknown.output).toContain('cobol');
  });

  it('ASTG-04: a language id in another case, with blanks, by a common other name or extension is understood', async () => {
    for (const language of ['TypeScript', ' ts ', 'TS', '.ts'])
      expect((await grep({ pattern: 'dispose($X)', language, path: 'src' })).metadata).toMatchObject({
        language: 'typescript',
        total: 2,
      });
    for (const [language, id] of [
      ['py', 'python'],
      ['c++', 'cpp'],
      ['golang', 'go'],
      ['sh', 'bash'],
    ])
      expect((await grep({ pattern: 'x', language, path: 'lib' })).metadata).toMatchObject({ language: id });
    for (const language of ['__proto__', 'constructor', 'type script'])
      expect(errorCode(await grep({ pattern: 'x', language }))).toBe('AST_LANGUAGE');
  });

  it('binary and huge files are named as not searched, never reported as searched with no match', async () => {
    put('bin/blob.ts', '\u0000\u0001dispose(x);\n');
    put('bin/huge.ts', 'dispose(x);\n'.repeat(300_000));
    const r = await grep({ pattern: 'dispose($X)', language: 'typescript', path: 'bin' });
    expect(r.metadata).toMatchObject({ total: 0, skipped_files: ['bin/blob.ts', 'bin/huge.ts'] });
    expect(r.output).toMatch(
      /not searched: 2 files \(binary, larger than 2 MiB or unreadable\): bin\/blob\.ts, bin\/huge\.ts/,
    );
    const e = await edit({ pattern: 'dispose($X)', rewrite: 'close($X)', path: 'bin/huge.ts' });
    expect(e.output).toMatch(/nothing was staged\.\n\[not searched: 1 file .*bin\/huge\.ts\]/);
  });

  it('ASTG-07: an unparseable pattern fails instead of returning no matches', async () => {
    const r = await grep({ pattern: 'dispose(', language: 'typescript' });
    expect(r.exitCode).toBe(1);
    expect(errorCode(r)).toBe('AST_PATTERN_UNPARSEABLE');
    expect(r.output).toMatch(/typescript.*statement, expression, class member, declaration/);
  });
});

describe('ast_edit and resolve', () => {
  it('ASTE-01/ASTE-02: stages a rewrite with substituted captures and writes nothing', async () => {
    const r = await edit({ pattern: 'dispose($X)', rewrite: '$X.dispose()', language: 'typescript' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toMatch(/^\(proposed\) 2 replacements in 2 files … call resolve with edit_id "edit_1"/);
    expect(r.output).toContain('-dispose(x);\n+x.dispose();');
    expect(r.metadata).toMatchObject({ edit_id: 'edit_1', replacements: 2, changes: [] });
    expect(get('src/a.ts')).toBe('dispose(x);\nfoo(1, 2);\nconst s = "dispose(x)";\n');
    expect(workspace.writes).toEqual([]);
  });

  it('ASTE-03/ASTE-04/ASTE-05: accept writes every file of the edit through the workspace and reports the changes', async () => {
    const staged = await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript', path: 'src' });
    const r = await resolve({ edit_id: staged.metadata?.edit_id, action: 'accept' });
    expect(r.exitCode).toBe(0);
    expect(get('src/a.ts')).toBe('release(x);\nfoo(1, 2);\nconst s = "dispose(x)";\n');
    expect(get('src/b.ts')).toBe('function f() {\n  release(x);\n}\n');
    expect(workspace.writes.sort()).toEqual(['src/a.ts', 'src/b.ts']);
    const changes = r.metadata?.changes as { path: string; digest_after: string }[];
    expect(changes.map((c) => c.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(changes[0]!.digest_after).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('ASTE-05: a file another program changes while the edit is being written keeps that change; the files already written are restored', async () => {
    const staged = await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript', path: 'src' });
    const theirs = 'function f() {\n  dispose(x);\n  theirs();\n}\n';
    const fs = workspace.fs!;
    const write = fs.writeFile.bind(fs);
    // Another program writes src/b.ts right after the edit wrote src/a.ts.
    fs.writeFile = async (path, data, options) => {
      await write(path, data, options);
      if (path === 'src/a.ts' && String(data).includes('release')) put('src/b.ts', theirs);
    };
    const r = await resolve({ edit_id: staged.metadata?.edit_id, action: 'accept' });
    fs.writeFile = write;
    expect(errorCode(r)).toBe('AST_EDIT_STALE');
    expect(r.output).toContain('src/b.ts changed while edit_1 was being written; the other change is kept');
    expect(get('src/b.ts')).toBe(theirs);
    expect(get('src/a.ts')).toBe('dispose(x);\nfoo(1, 2);\nconst s = "dispose(x)";\n');
  });

  it('ASTE-05: a file changed after staging rejects the whole edit and writes none', async () => {
    const staged = await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript' });
    put('src/b.ts', 'function f() {\n  dispose(x);\n  other();\n}\n');
    const r = await resolve({ edit_id: 'edit_1', action: 'accept' });
    expect(staged.metadata?.edit_id).toBe('edit_1');
    expect(r.exitCode).toBe(1);
    expect(errorCode(r)).toBe('AST_EDIT_STALE');
    expect(r.output).toContain('src/b.ts');
    expect(r.metadata?.changes).toEqual([]);
    expect(workspace.writes).toEqual([]);
    expect(get('src/a.ts')).toContain('dispose(x);');
    const again = await resolve({ edit_id: 'edit_1', action: 'accept' });
    expect(errorCode(again)).toBe('AST_EDIT_UNKNOWN');
    expect(again.output).toContain('already rejected');
  });

  it('ASTE-06: discard drops the edit untouched, and the id cannot be resolved again', async () => {
    await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript' });
    const r = await resolve({ edit_id: 'edit_1', action: 'discard' });
    expect(r).toMatchObject({ exitCode: 0, metadata: { changes: [] } });
    expect(workspace.writes).toEqual([]);
    for (const action of ['accept', 'discard']) {
      const again = await resolve({ edit_id: 'edit_1', action });
      expect(errorCode(again)).toBe('AST_EDIT_UNKNOWN');
      expect(again.output).toContain('already discarded');
    }
    expect(errorCode(await resolve({ edit_id: 'edit_9', action: 'accept' }))).toBe('AST_EDIT_UNKNOWN');
  });

  it('ASTE-04: an accepted id cannot be resolved again', async () => {
    await edit({ pattern: 'foo($$$A)', rewrite: 'bar($$$A)', path: 'src/a.ts' });
    expect((await resolve({ edit_id: 'edit_1', action: 'accept' })).exitCode).toBe(0);
    const again = await resolve({ edit_id: 'edit_1', action: 'accept' });
    expect(errorCode(again)).toBe('AST_EDIT_UNKNOWN');
    expect(get('src/a.ts')).toContain('bar(1, 2);');
  });

  it('ASTE-01: multi-line captures are re-indented to where the rewrite puts them', async () => {
    put('src/wrap.ts', 'class A {\n  m() {\n    run(() => {\n      step();\n      done();\n    });\n  }\n}\n');
    const r = await edit({
      pattern: 'run($F)',
      rewrite: 'guard(async () => {\n  await run($F);\n})',
      path: 'src/wrap.ts',
    });
    expect(r.exitCode).toBe(0);
    await resolve({ edit_id: r.metadata?.edit_id, action: 'accept' });
    expect(get('src/wrap.ts')).toBe(
      'class A {\n  m() {\n    guard(async () => {\n      await run(() => {\n        step();\n        done();\n      });\n    });\n  }\n}\n',
    );
  });

  it('ASTE-01: nested matches are rewritten once, by the outermost match', async () => {
    put('src/nest.ts', 'f(f(1));\n');
    const r = await edit({ pattern: 'f($A)', rewrite: 'g($A)', path: 'src/nest.ts' });
    expect(r.metadata?.replacements).toBe(1);
    expect(r.output).toMatch(/^\(proposed\) 1 replacement in 1 file … call resolve with edit_id "edit_1"/);
    await resolve({ edit_id: r.metadata?.edit_id, action: 'accept' });
    expect(get('src/nest.ts')).toBe('g(f(1));\n');
  });

  it('ASTE-01: a rewrite naming a metavariable the pattern does not bind is refused', async () => {
    const r = await edit({ pattern: 'dispose($X)', rewrite: '$Y.dispose()', language: 'typescript' });
    expect(errorCode(r)).toBe('AST_REWRITE_UNBOUND');
    expect(r.output).toContain('$Y');
    expect(ast.edits.pending()).toEqual([]);
  });

  it('ASTE-01: a $ word mixing cases ($__proto__) is refused by name, lower-case ones ($toString) are code', async () => {
    put('src/p.ts', 'f(a);\n$toString(b);\n');
    for (const [pattern, rewrite] of [
      ['f($__proto__)', 'g($__proto__)'],
      ['f($X)', 'g($__proto__)'],
      ['f($$$__proto__)', 'g()'],
      ['f($Constructor)', 'g()'],
      ['f($XÄ)', 'g()'],
      ['f($X)', 'g($Xé)'],
      ['f($$$args)', 'g()'],
      ['f($$X)', 'g()'],
    ]) {
      const r = await edit({ pattern, rewrite, language: 'typescript', path: 'src/p.ts' });
      expect(errorCode(r), `${pattern} / ${rewrite}`).toBe('AST_METAVARIABLE_NAME');
      expect(r.output).toMatch(/uses "\$+[A-Z_]*\p{L}/u);
    }
    expect(ast.edits.pending()).toEqual([]);
    const r = await edit({
      pattern: '$toString($X)',
      rewrite: '$constructor($X)',
      language: 'typescript',
      path: 'src/p.ts',
    });
    await resolve({ edit_id: r.metadata?.edit_id, action: 'accept' });
    expect(get('src/p.ts')).toBe('f(a);\n$constructor(b);\n');
  });

  it('ASTE-02: a pattern matching nothing stages nothing', async () => {
    const r = await edit({ pattern: 'never($X)', rewrite: 'x', language: 'typescript' });
    expect(r.output).toMatch(/^\(no change\)/);
    expect(r.metadata).toMatchObject({ edit_id: null, changes: [] });
  });

  it('ASTE-05: a write failing part-way restores the files already written and reports no change', async () => {
    await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript', path: 'src' });
    const write = workspace.fs!.writeFile;
    let calls = 0;
    const failing = {
      ...workspace,
      fs: {
        ...workspace.fs!,
        writeFile: async (path: string, data: string | Uint8Array) => {
          calls++;
          if (calls === 2) throw new Error('disk full');
          return write(path, data);
        },
      },
    };
    const ctx = createToolContext({ workspace: failing, resources: { [AST_RESOURCE]: ast } });
    const r = await (resolveTool as unknown as Tool<Record<string, unknown>>).execute(
      { edit_id: 'edit_1', action: 'accept' },
      ctx,
    );
    expect(errorCode(r)).toBe('AST_WRITE_FAILED');
    expect(r.output).toContain('disk full');
    expect(r.metadata?.changes).toEqual([]);
    expect(get('src/a.ts')).toBe('dispose(x);\nfoo(1, 2);\nconst s = "dispose(x)";\n');
    expect(get('src/b.ts')).toBe('function f() {\n  dispose(\n    x,\n  );\n}\n');
  });

  it('ASTE-01: Python rewrites keep the block indentation; CRLF files keep their line ends', async () => {
    put('lib/d.py', 'class C:\n    def m(self):\n        if x:\n            close(a,\n                  b)\n');
    const py = await edit({
      pattern: 'close($$$A)',
      rewrite: 'try:\n    shut($$$A)\nexcept OSError:\n    pass',
      path: 'lib/d.py',
    });
    await resolve({ edit_id: py.metadata?.edit_id, action: 'accept' });
    expect(get('lib/d.py')).toBe(
      'class C:\n    def m(self):\n        if x:\n            try:\n                shut(a,\n                      b)\n            except OSError:\n                pass\n',
    );
    put('src/crlf.ts', 'function f() {\r\n  dispose(x);\r\n}\r\n');
    const ts = await edit({ pattern: 'dispose($X)', rewrite: 'if ($X) {\n  $X.dispose();\n}', path: 'src/crlf.ts' });
    await resolve({ edit_id: ts.metadata?.edit_id, action: 'accept' });
    expect(get('src/crlf.ts')).toBe('function f() {\r\n  if (x) {\r\n    x.dispose();\r\n  };\r\n}\r\n');
  });

  it('ASTE-06: staged edits die with the session resource', async () => {
    await edit({ pattern: 'dispose($X)', rewrite: 'release($X)', language: 'typescript' });
    expect(ast.edits.pending()).toEqual(['edit_1']);
    await ast.close();
    expect(ast.edits.pending()).toEqual([]);
    ast = await openAstResource();
    expect(errorCode(await resolve({ edit_id: 'edit_1', action: 'accept' }))).toBe('AST_EDIT_UNKNOWN');
    expect(workspace.writes).toEqual([]);
  });

  it('ASTE-02: a rewrite that breaks the syntax of a clean file is staged with a warning', async () => {
    const r = await edit({ pattern: 'foo($A, $B)', rewrite: 'foo($A, $B', path: 'src/a.ts' });
    expect(r.output).toContain('WARNING: after this rewrite 1 file no longer parses as typescript: src/a.ts');
    expect(r.metadata?.syntax_errors_after).toEqual(['src/a.ts']);
    const fine = await edit({ pattern: 'foo($A, $B)', rewrite: 'foo($B, $A)', path: 'src/a.ts' });
    expect(fine.output).not.toContain('WARNING');
    expect(fine.metadata?.syntax_errors_after).toEqual([]);
  });
});
