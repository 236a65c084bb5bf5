export { BATCH_LIMITS, createBatchTool } from './batch-tool.js';
export type { BatchArgs, BatchItemResult } from './batch-tool.js';
