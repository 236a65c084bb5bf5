/**
 * The limit on what one server may make the host hold at once: one stdio line, one HTTP response
 * body, one SSE event. A server is untrusted; past the limit its output is not kept.
 */

/** Default of a server entry's `maxMessageBytes` (as the MCP SDK's own stdio reader), bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Smallest `maxMessageBytes` an entry may set, bytes. */
export const MIN_MAX_MESSAGE_BYTES = 1024;

/** Largest `maxMessageBytes` an entry may set (256 MiB), bytes. */
export const MAX_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** JSON-RPC code of the error a request gets when its answer was over the limit. */
export const OVERSIZED_RPC_CODE = -32603;

/** `the most read is <max> bytes (maxMessageBytes)`: how every limit error names the limit. */
export function limitText(max: number): string {
  return `the most read is ${max} bytes (maxMessageBytes)`;
}
