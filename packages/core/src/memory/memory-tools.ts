/**
 * `remember` (write tier) and `recall` (read tier): the model's access to the session's memory
 * store, which the memory pack attaches as the resource `resource.memory` (the tools are on the
 * surface exactly when the session has a store). A memory lives under `.a3s/`, not in the
 * workspace's files, so `remember` reports that it changed no workspace file.
 */
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack, type ToolPack } from '../tools/tool-pack.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };
import type { MemoryRecord, MemoryStore } from './memory-store.js';

/** Names of the memory tools. */
export const MEMORY_TOOL_NAMES = Object.freeze(['remember', 'recall'] as const);

function view(r: MemoryRecord): Record<string, unknown> {
  return {
    id: r.id,
    content: r.content,
    tags: r.tags,
    ...(r.key === undefined ? {} : { key: r.key }),
    updated_at_ms: r.updatedAtMs,
  };
}

/** The memory tools over `store`. */
export function createMemoryTools(store: () => MemoryStore | undefined) {
  const use = (): MemoryStore => {
    const s = store();
    if (s === undefined) throw new Error('this session has no memory store');
    return s;
  };
  return [
    defineTool({
      name: 'remember',
      description:
        'Store a fact, decision or preference for later sessions of this workspace (not a file of the workspace). Give a `key` to replace an earlier memory under the same key; `tags` help recall it.',
      tier: 'write',
      requires: ['resource.memory'],
      inputJsonSchema: toolJsonSchemas.remember,
      plainInput: true,
      input: (z) =>
        z.strictObject({
          content: z.string().min(1).max(10_000).describe('What to remember, self-contained.'),
          tags: z.array(z.string().min(1).max(64)).max(16).optional().describe('Labels to recall it by.'),
          key: z.string().min(1).max(200).optional().describe('Replaces the memory stored under this key.'),
        }),
      capabilities: { idempotent: true },
      execute: async (args) => {
        const r = await use().remember(args);
        return {
          output: JSON.stringify({ remembered: view(r) }),
          exitCode: 0,
          // Memories are session state, not workspace files: nothing for the completion gate to verify.
          metadata: { memory_id: r.id, changes: [] },
        };
      },
    }),
    defineTool({
      name: 'recall',
      description:
        'Find what earlier sessions of this workspace remembered: memories containing any of the query words (best matches first), optionally only those with all given tags; without a query, the newest.',
      tier: 'read',
      requires: ['resource.memory'],
      inputJsonSchema: toolJsonSchemas.recall,
      plainInput: true,
      input: (z) =>
        z.strictObject({
          query: z.string().max(2000).optional().describe('Words to look for.'),
          tags: z.array(z.string().min(1).max(64)).max(16).optional().describe('Only memories with all these tags.'),
          limit: z.number().int().min(1).max(50).default(10).describe('Most memories to return.'),
        }),
      capabilities: { readOnly: true, idempotent: true, outputType: 'json' },
      execute: async (args) => {
        const found = await use().recall(args);
        return {
          output: JSON.stringify({ memories: found.map(view) }),
          exitCode: 0,
          metadata: { count: found.length },
        };
      },
    }),
  ];
}

/** Core's memory pack: the tools, and `resource.memory` when the session has a store. */
export function memoryToolPack(store: MemoryStore | undefined, version: string): ToolPack {
  return defineToolPack({
    name: '@a3s-code/core/memory',
    version,
    tools: createMemoryTools(() => store),
    resources:
      store === undefined
        ? []
        : [{ capability: 'resource.memory', open: async () => ({ close: async () => undefined }) }],
  });
}
