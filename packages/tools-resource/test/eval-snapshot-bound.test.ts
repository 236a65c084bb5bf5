// The workspace listings around a cell (for what it changed) are bounded: a listing that never
// finishes is given up after SNAPSHOT_TIMEOUT_MS, the cell still runs, and the changes are unknown
// with a note. A real Node kernel in a temporary folder; the search never answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNAPSHOT_TIMEOUT_MS, type Tool, type WorkspaceGlobRequest } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVAL_RESOURCE, type EvalResource, evalTool, openEvalResource } from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

let dir = '';
let kernels: EvalResource | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-snap-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('eval: a stuck workspace listing', () => {
  it('is given up at its bound: the cell runs, the changes are unknown, and the output says so', async () => {
    const seen: AbortSignal[] = [];
    const disk = diskWorkspace(dir);
    const workspace = {
      ...disk,
      search: {
        ...disk.search!,
        glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
          if (request.signal) seen.push(request.signal);
          return {
            async *[Symbol.asyncIterator]() {
              await new Promise<never>(() => undefined);
            },
          };
        },
      },
    };
    const t0 = Date.now();
    const r = await (evalTool as unknown as Tool<Record<string, unknown>>).execute(
      { description: 'a cell run by the tests here', code: '6 * 7', language: 'javascript' },
      createToolContext({ workspace, resources: { [EVAL_RESOURCE]: kernels! } }),
    );
    expect(Date.now() - t0).toBeLessThan(SNAPSHOT_TIMEOUT_MS + 5000);
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('42');
    expect(r.output).toContain(
      `[the files this call changed are unknown: listing the workspace took longer than ${SNAPSHOT_TIMEOUT_MS} ms and was stopped]`,
    );
    expect(r.metadata?.changed_files).toBeNull();
    expect(seen[0]?.aborted).toBe(true);
  }, 20_000);
});
