export { FileMemoryStore, MEMORY_FOLDER } from './file-memory-store.js';
export { InMemoryMemoryStore } from './in-memory-memory-store.js';
export { MemoryFolderError, MemoryInputError } from './memory-input.js';
export type { MemoryRecord, MemoryStore, RecallQuery, RememberInput } from './memory-store.js';
export { createMemoryTools, MEMORY_TOOL_NAMES, memoryToolPack } from './memory-tools.js';
