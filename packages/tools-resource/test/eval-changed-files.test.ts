// eval tells what a cell changed in the workspace (for the completion gate) even when the cell's
// interpreter dies: a real Node kernel in a temporary folder.
import { describe, expect, it } from 'vitest';
import { jsKernelPerTest } from './eval-js-harness.js';

const { js } = jsKernelPerTest('a3s-eval-changes-');

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
