// Helpers of the debug tests: a temporary project folder and a `debug` caller on a real supervisor.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { DEBUG_RESOURCE, type DebugResource, debugTool } from '../src/debug.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** A temporary folder holding `files`. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-debug-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Calls `debug` with `args` in `dir` on `debug`. */
export function caller(
  dir: string,
  debug: () => DebugResource,
): (args: Record<string, unknown>) => Promise<ToolResult> {
  return (args) =>
    (debugTool as unknown as Tool<Record<string, unknown>>).execute(
      args,
      createToolContext({ workspace: diskWorkspace(dir), resources: { [DEBUG_RESOURCE]: debug() } }),
    );
}

/** True while process `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits up to `ms` for every process of `pids` to be gone (see {@link alive}), polling every 20 ms; returns those still there. */
export async function aliveAfter(pids: readonly number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The error code of a failed result. */
export const errorCode = (r: ToolResult) => (r.metadata?.error as { code?: string } | undefined)?.code;
