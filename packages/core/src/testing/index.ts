/**
 * `@a3s-code/core/testing`: test doubles that ship with the product.
 */
export { ScriptedLlmClient, ScriptError, type LlmScript, type ScriptedLlmClientOptions, type ScriptedTurn } from './scripted-llm-client.js';
