/**
 * `@a3s-code/effect`: the pure fact-log engine of A3S Code. No I/O, no clock, no randomness:
 * hosts supply facts (with any timestamps inside them) and executors; this package decides.
 */
export * from './errors.js';
export { Sha256, sha256Hex } from './sha256.js';
export { effectLogPath, threadIdFor } from './thread.js';
export * from './kinds.js';
export { encodeFact, parseFactLine, parseLog, validateDraft, canonicalJson } from './fact.js';
export type { Fact, FactDraft, ParsedLog, TornLine } from './fact.js';
export { FactLog, type LogDigest } from './fact-log.js';
export { resolveRecipe, DEFAULT_TOOL_BUDGET, type Recipe, type ResolvedRecipe } from './recipe.js';
export * from './state.js';
export { Folder, fold, QUESTION_CARRY_ON } from './folder.js';
export * from './harness.js';
export * from './advance.js';
export { drafts, checkHostFact, type TypedDraft } from './drafts.js';
export { summarizeLog, type ContinuationSummary, type LogSummary, type RunSummary, type ToolStats } from './summary.js';
export { formatSummary } from './format.js';
