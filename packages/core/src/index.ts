/**
 * `@a3s-code/core`: the governed tool kernel of A3S Code. This is the only public entry (plus
 * `@a3s-code/core/testing`); tool packs and the MCP package import nothing else.
 */
export * from './errors/index.js';
export * from './tools/index.js';
export * from './workspace/index.js';
export * from './invoker/index.js';
