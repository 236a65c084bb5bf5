// Real git repositories for the deny-rule tests: temporary folders removed after the file's tests,
// git run with a fixed identity, and files written with their folders.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type PermissionPolicyConfig, ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll } from 'vitest';
import { LocalWorkspace, gitTool } from '../src/index.js';

/** A fresh folder (its real path) removed after the calling test file's tests. Call at the top level of a test file. */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    made.push(dir);
    return dir;
  };
}

/** Runs git in `dir` with a fixed author; returns its stdout. */
export function sh(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** Writes `files` (workspace-relative path → text) under `dir`, making their folders. */
export function put(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** Calls of the git tool in `dir` through a real kernel with `policy`, one new call id each. */
export function gitOn(
  dir: string,
  policy: PermissionPolicyConfig,
): (args: Record<string, unknown>) => Promise<ToolInvocationResult> {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.add(gitTool);
  const invoker = new ToolInvoker({ registry, workspace, policy });
  let n = 0;
  return (args) => invoker.invoke({ id: `g${++n}`, name: 'git', args }, createTestInvocation().context);
}

/** Whether a permission rule refused the call. */
export const denied = (r: ToolInvocationResult): boolean => !r.ok && r.metadata.error_code === 'PERMISSION_DENIED';
