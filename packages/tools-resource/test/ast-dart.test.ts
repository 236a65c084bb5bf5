// The seed's own Dart examples through the tools, on real files with the bundled Dart grammar.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AST_RESOURCE, type AstResource, astEditTool, astGrepTool, openAstResource, resolveTool } from '../src/ast.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

let dir: string;
let ast: AstResource;
let workspace: ReturnType<typeof diskWorkspace>;

const SOURCE = [
  'class Page {',
  '  void close() {',
  '    if (controller != null) controller.dispose();',
  '    if (controller != null) other.dispose();',
  '    dispose(timer);',
  "    print('dispose(timer)'); // dispose(timer)",
  '  }',
  '}',
  '',
].join('\n');

function call(tool: Tool<never>, args: Record<string, unknown>): Promise<ToolResult> {
  const ctx = createToolContext({ workspace, resources: { [AST_RESOURCE]: ast } });
  return (tool as unknown as Tool<Record<string, unknown>>).execute(args, ctx);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-ast-dart-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'page.dart'), SOURCE);
  workspace = diskWorkspace(dir);
  ast = await openAstResource();
});
afterEach(async () => {
  await ast.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Dart in the ast tools', () => {
  it('ASTG-02/ASTG-04: the seed’s Dart search matches only where both $X are the same name', async () => {
    const r = await call(astGrepTool as Tool<never>, { pattern: 'if ($X != null) $X.dispose()', language: 'dart' });
    expect(r.exitCode).toBe(0);
    expect(r.metadata).toMatchObject({ language: 'dart', total: 1 });
    expect(r.metadata?.matches).toEqual([
      {
        path: 'lib/page.dart',
        line: 3,
        end_line: 3,
        text: 'if (controller != null) controller.dispose();',
        captures: { X: 'controller' },
      },
    ]);
  });

  it('ASTG-04: the language of a .dart file is inferred', async () => {
    const r = await call(astGrepTool as Tool<never>, { pattern: 'dispose($X)', path: 'lib/page.dart' });
    expect(r.metadata).toMatchObject({ language: 'dart', total: 1 });
  });

  it('ASTE-01/ASTE-03: the seed’s Dart rewrite stages, then writes only the call in code', async () => {
    const staged = await call(astEditTool as Tool<never>, {
      pattern: 'dispose($X)',
      rewrite: '$X.dispose()',
      language: 'dart',
    });
    expect(staged.exitCode).toBe(0);
    expect(staged.metadata).toMatchObject({ edit_id: 'edit_1', replacements: 1 });
    const done = await call(resolveTool as Tool<never>, { edit_id: 'edit_1', action: 'accept' });
    expect(done.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'lib', 'page.dart'), 'utf8')).toBe(
      SOURCE.replace('    dispose(timer);', '    timer.dispose();'),
    );
  });
});
