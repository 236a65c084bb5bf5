/**
 * `@a3s-code/core/testing`: test doubles that ship with the product, for this package's tests and
 * every package built on it.
 */
export { createTestToolPack } from './test-tool-pack.js';
export type { TestExecution, TestToolPack, TestToolPackOptions, TestToolState } from './test-tool-pack.js';
export { ScriptedConfirmationManager } from './scripted-confirmation.js';
export { RecordingEventSink, createTestInvocation } from './recording-event-sink.js';
export type { TestInvocation } from './recording-event-sink.js';
// The scripted model is a product feature (`@a3s-code/core`'s main entry); tests keep finding it here.
export {
  ScriptedLlmClient,
  ScriptError,
  type LlmScript,
  type ScriptedLlmClientOptions,
  type ScriptedTurn,
} from '../llm/scripted-llm-client.js';
export { createToolContext } from './tool-context.js';
export type { TestToolContext, TestToolContextOverrides } from './tool-context.js';
