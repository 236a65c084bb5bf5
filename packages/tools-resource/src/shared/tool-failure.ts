/** The result of a resource tool's call that failed with a typed error. */
import type { ToolResult } from '@a3s-code/core';

/**
 * `CODE: message` (then `detail`, when there is one) as the output, exit code 1, and the error's
 * code and message in `metadata.error`.
 */
export function toolFailure(error: { readonly code: string; readonly message: string }, detail = ''): ToolResult {
  return {
    output: `${error.code}: ${error.message}${detail}`,
    exitCode: 1,
    metadata: { error: { code: error.code, message: error.message } },
  };
}
