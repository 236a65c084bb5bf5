import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_CAPABILITIES, emptyWorkspace, type JsonSchema } from '@a3s-code/core';
import { LocalWorkspace } from './local/local-workspace.js';
import { MemoryWorkspace } from './memory/memory-workspace.js';
import { toolsFor, workspaceToolPack, workspaceTools } from './pack.js';
import { tempDir } from './test-support/harness.js';

/** Every object schema in a JSON Schema, nested ones included. */
function objects(schema: JsonSchema, at = 'args'): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = [];
  if (schema.type === 'object') out.push([at, schema]);
  for (const [key, value] of Object.entries(schema.properties ?? {})) out.push(...objects(value, `${at}.${key}`));
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === 'object') out.push(...objects(items, `${at}[]`));
  return out;
}

describe('the workspace tool pack', () => {
  it('SURF-03: holds the nine tools with their tiers and required capabilities', () => {
    expect(workspaceToolPack.name).toBe('@a3s-code/tools-workspace');
    expect(workspaceTools.map((t) => [t.name, t.tier, t.requires])).toEqual([
      ['read', 'read', ['fs.read']],
      ['write', 'write', ['fs.read', 'fs.write']],
      ['edit', 'write', ['fs.read', 'fs.write']],
      ['patch', 'write', ['fs.read', 'fs.write']],
      ['grep', 'read', ['search']],
      ['glob', 'read', ['search']],
      ['ls', 'read', ['fs.list']],
      ['bash', 'exec', ['exec']],
      ['git', 'write', ['git']],
    ]);
  });

  it('SURF-02/03: a memory workspace gets the file tools but never bash or git; local gets all nine', () => {
    const tmp = tempDir();
    try {
      expect(toolsFor(new MemoryWorkspace()).map((t) => t.name)).toEqual([
        'read',
        'write',
        'edit',
        'patch',
        'grep',
        'glob',
        'ls',
      ]);
      const mem = new MemoryWorkspace();
      expect(mem.capabilities.has('exec')).toBe(false);
      expect('exec' in mem).toBe(false);
      expect('git' in mem).toBe(false);
      expect(toolsFor(new LocalWorkspace({ root: tmp.dir }))).toHaveLength(9);
      expect(
        toolsFor(new LocalWorkspace({ root: tmp.dir, without: ['exec', 'git'] })).map((t) => t.name),
      ).not.toContain('bash');
      expect(toolsFor(emptyWorkspace())).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });

  it.each(workspaceTools.map((t) => [t.name, t] as const))(
    '%s has snake_case args and closed object schemas',
    (_, tool) => {
      for (const [at, schema] of objects(tool.inputSchema)) {
        expect(schema.additionalProperties, `${tool.name} ${at}`).toBe(false);
        for (const key of Object.keys(schema.properties ?? {}))
          expect(key, `${tool.name} ${at}.${key}`).toMatch(/^(-[A-Za-z]|[a-z][a-z0-9_]*)$/);
      }
      expect(tool.description.length).toBeGreaterThan(80);
    },
  );

  it('BND-02: read-tier tools are read-only, idempotent and paginated; write tools are not read-only', () => {
    for (const tool of workspaceTools) {
      const caps = { ...DEFAULT_TOOL_CAPABILITIES, ...tool.capabilities };
      if (tool.tier === 'read')
        expect(caps, tool.name).toMatchObject({ readOnly: true, idempotent: true, paginated: true });
      else expect(caps.readOnly, tool.name).toBe(false);
    }
  });
});
