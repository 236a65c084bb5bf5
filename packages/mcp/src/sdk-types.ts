/**
 * The MCP SDK's protocol module (`types.js`: error codes and notification schemas), loaded on the
 * first server start rather than when the package is imported: it builds the SDK's schemas.
 */
type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js');

let loading: Promise<SdkTypes> | undefined;

/** Loads (once) the SDK's `types.js`. */
export function loadSdkTypes(): Promise<SdkTypes> {
  loading ??= import('@modelcontextprotocol/sdk/types.js');
  return loading;
}
