/**
 * Result helpers shared by the tools: success and failure `ToolResult`s, and the line between
 * the caller's mistakes (thrown as typed errors) and run-time outcomes (failed results).
 */
import {
  type A3sError,
  CapabilityUnavailableError,
  type ToolContext,
  type ToolResult,
  type WorkspaceCallOptions,
  type WorkspaceFileIdentity,
  type WorkspaceFileSystem,
} from '@a3s-code/core';
import { WorkspaceFileError } from '../../errors.js';
import { assertNotRuntimeState, normalizeWorkspacePath } from '../../paths/normalize.js';

/** A successful result. */
export function ok(output: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined ? { output, exitCode: 0 } : { output, exitCode: 0, metadata };
}

/** A failed result carrying the typed error's code and details in `metadata.error`. */
export function failed(error: A3sError, metadata: Record<string, unknown> = {}): ToolResult {
  return {
    output: error.message,
    exitCode: 1,
    metadata: { ...metadata, error: { code: error.code, message: error.message, details: error.details } },
  };
}

/**
 * Runs a tool body. Run-time file outcomes (missing file, directory where a file was expected)
 * become failed results the model can act on; everything else (bad arguments, refused paths,
 * cancellation) propagates as the typed error it is.
 */
export async function guard(body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof WorkspaceFileError) return failed(error);
    throw error;
  }
}

/**
 * The workspace's file system, or `CAPABILITY_UNAVAILABLE`. Reading or listing a path in the
 * runtime's own state (`.a3s/effect-log/`, `.a3s/workflows/`, ...) through it is refused
 * (`WORKSPACE_PATH`, `runtime_state`): what other runs and sessions recorded is not the tools'.
 */
export function filesOf(
  ctx: ToolContext,
  capability: 'fs.read' | 'fs.write' | 'fs.list',
  operation: string,
): WorkspaceFileSystem {
  const fs = ctx.workspace.fs;
  if (!fs || !ctx.workspace.capabilities.has(capability)) throw new CapabilityUnavailableError(capability, operation);
  return withoutRuntimeState(fs, ctx.workspace.root);
}

/**
 * Throws when a search's `path` argument is in the runtime's own state (`WORKSPACE_PATH`,
 * `runtime_state`); searches from elsewhere skip those folders.
 */
export function assertSearchable(ctx: ToolContext, path: string): void {
  assertNotRuntimeState(normalizeWorkspacePath(path, { root: ctx.workspace.root }), 'path', path);
}

/** `fs`, whose reads and listings of the runtime's state are refused (see {@link filesOf}). */
function withoutRuntimeState(fs: WorkspaceFileSystem, root: string): WorkspaceFileSystem {
  const check = (path: string): void => {
    assertNotRuntimeState(normalizeWorkspacePath(path, { root }), 'path', path);
  };
  // Where a symbolic link led, as the backend reached it, is held to the same line.
  const reaching = (path: string, options: WorkspaceCallOptions | undefined): WorkspaceCallOptions => {
    const outer = options?.reached;
    return {
      ...options,
      reached: async (real: string, file?: WorkspaceFileIdentity) => {
        assertNotRuntimeState(real, 'path', path);
        await outer?.(real, file);
      },
    };
  };
  const chunks = fs.readChunks?.bind(fs);
  return {
    readFile: async (path, options) => {
      check(path);
      return fs.readFile(path, reaching(path, options));
    },
    ...(chunks === undefined
      ? {}
      : {
          readChunks: (path: string, options?: WorkspaceCallOptions): AsyncIterable<Uint8Array> => {
            check(path);
            return chunks(path, reaching(path, options));
          },
        }),
    list: async (path, options) => {
      check(path);
      return fs.list(path, reaching(path, options));
    },
    stat: (path, options) => fs.stat(path, options),
    ...(fs.statMany === undefined ? {} : { statMany: fs.statMany.bind(fs) }),
    writeFile: (path, data, options) => fs.writeFile(path, data, options),
    remove: (path, options) => fs.remove(path, options),
  };
}
