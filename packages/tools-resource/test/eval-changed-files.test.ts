// eval tells what a cell changed in the workspace (for the completion gate) even when the cell's
// interpreter dies: a real Node kernel in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVAL_RESOURCE, type EvalResource, evalTool, openEvalResource } from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

let dir: string;
let kernels: EvalResource;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-changes-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

const js = (code: string): Promise<ToolResult> =>
  (evalTool as unknown as Tool<Record<string, unknown>>).execute(
    { description: 'a cell run by the tests here', code, language: 'javascript' },
    createToolContext({ workspace: diskWorkspace(dir), resources: { [EVAL_RESOURCE]: kernels } }),
  );

describe('eval: what a cell changed', () => {
  it('EVAL-01: a cell whose kernel dies still tells what it changed, so the completion gate counts only that', async () => {
    const quiet = await js('process.exit(4)');
    expect(quiet.output).toContain('EVAL_KERNEL_DIED');
    expect(quiet.metadata?.changed_files).toEqual({ created: [], modified: [], deleted: [] });
    const wrote = await js('require("node:fs").writeFileSync("died-after.txt", "x"); process.exit(4)');
    expect(wrote.output).toContain('EVAL_KERNEL_DIED');
    expect(wrote.metadata?.changed_files).toEqual({ created: ['died-after.txt'], modified: [], deleted: [] });
  });
});
