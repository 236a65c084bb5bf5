/**
 * `ToolResult`: what the host-direct helpers return. It is core's governed
 * `ToolInvocationResult` seen from the host: the output, the exit code and the metadata as a JSON
 * string (`metadataJson`), plus the typed failure when the kernel refused or the tool failed.
 */
import type { A3sError } from '@a3s-code/effect';
import type { ToolErrorKind, ToolInvocationResult } from '@a3s-code/core';

/** The result of a host-direct tool call. */
export interface ToolResult {
  /** The tool's output (sanitised and capped by the kernel). */
  readonly output: string;
  /** The tool's exit code; `0` is success, `1` a failure before or around execution. */
  readonly exitCode: number;
  /** The result metadata as JSON (`JSON.parse` it for cursors, diffs, reports); absent when empty. */
  readonly metadataJson?: string;
  /** Why the call failed, when it did for a reason other than a non-zero exit (`invalid_args`, `timeout`, ...). */
  readonly errorKind?: ToolErrorKind;
  /** The typed error of a failure, when the kernel or the tool gave one. */
  readonly error?: A3sError;
}

/** Converts the kernel's result into the SDK's `ToolResult`. */
export function toToolResult(r: ToolInvocationResult): ToolResult {
  const hasMetadata = Object.keys(r.metadata).length > 0;
  return {
    output: r.output,
    exitCode: r.exitCode,
    ...(hasMetadata ? { metadataJson: JSON.stringify(r.metadata) } : {}),
    ...(r.errorKind === undefined ? {} : { errorKind: r.errorKind }),
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}

/** The `metadata.error.code` a workspace tool puts on a failed result, if any. */
export function errorCodeOf(r: ToolInvocationResult): string | undefined {
  if (r.error) return r.error.code;
  const e = r.metadata.error;
  if (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string')
    return (e as { code: string }).code;
  return undefined;
}
