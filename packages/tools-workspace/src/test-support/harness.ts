/**
 * Test helpers (not built, not exported): a real `ToolContext` around a workspace, temporary
 * folders and real Git repositories.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool, ToolContext, ToolResult, WorkspaceServices } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';

/** A context as the kernel builds it (core's testing helper), with an invoker that refuses nested calls. */
export function toolContext(
  workspace: WorkspaceServices,
  toolName: string,
  signal: AbortSignal = new AbortController().signal,
): ToolContext {
  return createToolContext({ workspace, toolName, signal, runId: 'run-test', sessionId: 'session-test' });
}

/** Calls a tool's `execute` as the kernel would (raw args: the tool parses them). */
export function call(
  tool: Tool,
  workspace: WorkspaceServices,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolResult> {
  return (tool as Tool<unknown>).execute(args, toolContext(workspace, tool.name, signal));
}

/** A fresh real temporary folder (symlinks resolved) and its cleanup. */
export function tempDir(prefix = 'a3s-tw-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes files (relative path → content) under `dir`. */
export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** Runs git in `dir` and returns stdout. */
export function sh(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
  });
}

/** `git init` with an identity and a first commit of the current tree. */
export function initRepo(dir: string): void {
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.email', 'test@example.com');
  sh(dir, 'config', 'user.name', 'Test');
  sh(dir, 'config', 'commit.gpgsign', 'false');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-q', '--allow-empty', '-m', 'initial');
}
