export type { JsonSchema, JsonValue } from './json-schema.js';
export { TOOL_TIERS, resolveCapabilities } from './tool.js';
export type { Tool, ToolResult, ToolTier } from './tool.js';
export { DEFAULT_TOOL_CAPABILITIES, type ToolCapabilities, type ToolOutputType } from './tool-capabilities.js';
export { TOOL_OUTPUT_DELTA_MAX_CHARS } from './tool-context.js';
export type { ToolContext } from './tool-context.js';
export { defineTool, formatArgPath, zodInputIsPlain, zodInputSchema, zodJsonSchemaOf } from './define-tool.js';
export type { DefineToolOptions, ToolArgRefinement } from './define-tool.js';
export { lazyZod, type Zod } from './zod-loader.js';
export { boundedInt, type IntRange } from './bounded-int.js';
export { defineToolPack } from './tool-pack.js';
export type { ToolPack } from './tool-pack.js';
export type {
  OpenedResource,
  RecordedToolResult,
  ResourceCapability,
  RunOwner,
  ToolResource,
  ToolResourceContext,
} from './tool-resource.js';
export type { ToolPackSettings, WebSetting, WebSettings } from './pack-settings.js';
export type { ToolMiddleware, ToolMiddlewareNext } from './tool-middleware.js';
export { TOOL_NAME_RE, assertValidTool } from './validate-tool.js';
export { MAX_CHECKS_PER_VALUE, schemaCostProblem } from './schema-cost.js';
export { LIVE_OUTPUT_LIMITS, LiveOutput, type LiveOutputStream } from './live-output.js';
