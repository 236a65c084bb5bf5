// A JavaScript eval kernel per test, in a fresh temporary folder: `js(code)` runs one cell.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach } from 'vitest';
import { EVAL_RESOURCE, type EvalResource, evalTool, openEvalResource } from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** Registers the kernel's set-up and tear-down; `prefix` names the temporary folders. */
export function jsKernelPerTest(prefix: string): { js: (code: string) => Promise<ToolResult>; dir: () => string } {
  let dir = '';
  let kernels: EvalResource | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    kernels = await openEvalResource({ inactivityMs: 30_000 });
  });
  afterEach(async () => {
    await kernels?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const js = (code: string): Promise<ToolResult> => {
    if (kernels === undefined) throw new Error('jsKernelPerTest: js() runs inside a test');
    return (evalTool as unknown as Tool<Record<string, unknown>>).execute(
      { description: 'a cell run by the tests here', code, language: 'javascript' },
      createToolContext({ workspace: diskWorkspace(dir), resources: { [EVAL_RESOURCE]: kernels } }),
    );
  };
  return { js, dir: () => dir };
}
