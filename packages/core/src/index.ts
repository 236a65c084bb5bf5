/**
 * `@a3s-code/core`: the governed tool kernel of A3S Code. This is the only public entry (plus
 * `@a3s-code/core/testing`); tool packs, model providers and the MCP package import nothing else.
 */
export * from './errors/index.js';
export * from './tools/index.js';
export * from './workspace/index.js';
export * from './invoker/index.js';
export * from './registry/index.js';
export * from './permissions/index.js';
export * from './events/index.js';
export * from './runtime-tools/index.js';
export * from './program/index.js';
export * from './llm/index.js';
export * from './store/index.js';
export * from './run/index.js';
export * from './session/index.js';
export * from './config/index.js';
export * from './generate-object/index.js';
export * from './gate/index.js';
export * from './prompt/index.js';
export * from './delegation/index.js';
export * from './skills/index.js';
export * from './hooks/index.js';
