/**
 * `generate_object`: schema-validated structured output through any {@link LlmClient}.
 */
export {
  completeStreamedValue,
  extractJson,
  isCompleteStreamedValue,
  jsonCandidate,
  type Extracted,
  type StreamedValue,
} from './extract-json.js';
export {
  generateObject,
  parseGenerateObjectInput,
  type GenerateObjectErrorKind,
  type GenerateObjectOptions,
  type GenerateObjectResult,
} from './generate-object.js';
export {
  createGenerateObjectTool,
  GENERATE_OBJECT_TOOL_NAME,
  partialEventText,
  toToolResult,
  type GenerateObjectToolOptions,
} from './generate-object-tool.js';
export {
  planFor,
  resolveMode,
  schemaInstructions,
  toolShape,
  type ModePlan,
  type ResolvedMode,
  type ToolShape,
} from './mode-plan.js';
export {
  GENERATE_OBJECT_MODES,
  getGenerateObjectInput,
  type GenerateObjectInput,
  type GenerateObjectMode,
  type GenerateObjectParams,
} from './params.js';
export { parsePartialJson, type PartialJson } from './partial-json.js';
export type { PartialListener } from './partial-tracker.js';
export {
  canonicalJson,
  compileSchema,
  formatViolations,
  InvalidSchemaError,
  type SchemaValidator,
  type SchemaViolation,
} from './schema-validator.js';
