/**
 * Result helpers shared by the tools: success and failure `ToolResult`s, and the line between
 * the caller's mistakes (thrown as typed errors) and run-time outcomes (failed results).
 */
import {
  type A3sError,
  CapabilityUnavailableError,
  type ToolContext,
  type ToolResult,
  type WorkspaceFileSystem,
} from '@a3s-code/core';
import { WorkspaceFileError } from '../../errors.js';

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

/** The workspace's file system, or `CAPABILITY_UNAVAILABLE`. */
export function filesOf(
  ctx: ToolContext,
  capability: 'fs.read' | 'fs.write' | 'fs.list',
  operation: string,
): WorkspaceFileSystem {
  const fs = ctx.workspace.fs;
  if (!fs || !ctx.workspace.capabilities.has(capability)) throw new CapabilityUnavailableError(capability, operation);
  return fs;
}
