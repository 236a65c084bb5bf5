import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { createTestToolPack } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { ToolRegistry } from './tool-registry.js';
import { modelSurface } from './tool-surface.js';

const lsp = defineTool({
  name: 'lsp',
  description: 'language server query',
  tier: 'read',
  requires: ['resource.lsp'],
  input: z.object({ file_path: z.string() }),
  execute: async () => ({ output: '', exitCode: 0 }),
});

describe('ToolRegistry', () => {
  it('SURF-02/03: a tool registers only when the workspace declares what it requires', () => {
    const { pack } = createTestToolPack();
    const files = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list'] });
    const report = files.registerPack(pack);
    expect(report.pending).toEqual([{ name: 'run', missing: ['exec'] }]);
    expect(files.toolNames()).toContain('write_note');
    expect(files.toolNames()).not.toContain('run');
    const bare = new ToolRegistry();
    bare.registerPack(pack);
    expect(bare.toolNames()).not.toContain('write_note');
  });

  it('a misspelt option or capabilities given as one string is refused by name, never dropped', () => {
    const refused = (options: unknown, field: string, message: RegExp) =>
      expect(() => new ToolRegistry(options as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', field, message: expect.stringMatching(message) }),
      );
    refused(
      { capabilites: ['exec'] },
      'options.capabilites',
      /^ToolRegistry: options\.capabilites: is not an option of ToolRegistry; allowed: capabilities; did you mean 'capabilities'\?$/,
    );
    refused(
      { capabilities: 'exec' },
      'options.capabilities',
      /must be an array or set of capability names.*got "exec"/,
    );
    refused(['exec'], 'options', /must be an options object \{ capabilities \}/);
    expect([...new ToolRegistry({ capabilities: new Set(['exec'] as const) }).capabilities()]).toEqual(['exec']);
  });

  it('TIER-05: a pending tool registers when a resource provides its capability', () => {
    const r = new ToolRegistry();
    expect(r.add(lsp).pending).toEqual([{ name: 'lsp', missing: ['resource.lsp'] }]);
    expect(r.get('lsp')).toBeUndefined();
    expect(r.provide(['resource.lsp']).registered).toEqual(['lsp']);
    expect(r.get('lsp')).toBe(lsp);
  });

  it('SURF-01/09: dynamic add and remove change names and definitions; definitions are cached', () => {
    const r = new ToolRegistry({ capabilities: ['resource.lsp'] });
    const before = r.toolDefinitions();
    expect(r.toolDefinitions()).toBe(before);
    let changes = 0;
    r.onChange(() => changes++);
    r.add(lsp);
    const after = r.toolDefinitions();
    expect(after).not.toBe(before);
    expect(after.map((d) => [d.name, d.tier])).toEqual([['lsp', 'read']]);
    expect(after[0]?.inputSchema).toBe(lsp.inputSchema);
    expect(r.remove('lsp')).toBe(true);
    expect(r.remove('lsp')).toBe(false);
    expect(r.toolNames()).toEqual([]);
    expect(changes).toBe(2);
  });

  it('rejects a duplicate name unless replace is set, and a malformed tool', () => {
    const r = new ToolRegistry({ capabilities: ['resource.lsp'] });
    r.add(lsp);
    expect(() => r.add(lsp)).toThrow(ToolDefinitionError);
    expect(r.add(lsp, { replace: true }).registered).toEqual(['lsp']);
    expect(() => r.add({ ...lsp, name: 'bad name' })).toThrow(/name: must match/);
    expect(() => r.use({ name: 'm', tools: 'write' as never, wrap: async (_c, n) => n(undefined) })).toThrow(
      /tools: must be an array/,
    );
  });

  it('TIER-03: plan mode and read-only agents see only read tools; write/exec are absent from schemas', () => {
    const { pack } = createTestToolPack();
    const r = new ToolRegistry({ capabilities: ['fs.write', 'exec'] });
    r.registerPack(pack);
    const full = modelSurface(r, {});
    const plan = modelSurface(r, { mode: 'plan' });
    const readOnly = modelSurface(r, { readOnly: true });
    expect(full.toolNames()).toEqual(expect.arrayContaining(['write_note', 'run']));
    for (const s of [plan, readOnly]) {
      expect(s.toolNames()).not.toContain('write_note');
      expect(s.toolNames()).not.toContain('run');
      expect(s.toolDefinitions().every((d) => d.tier === 'read')).toBe(true);
      expect(s.get('run')).toBeUndefined();
      expect(s.get('echo')).toBeDefined();
    }
  });

  it('PERM: a deny that covers every call hides the tool from the model surface', () => {
    const { pack } = createTestToolPack();
    const r = new ToolRegistry({ capabilities: ['fs.write', 'exec'] });
    r.registerPack(pack);
    const s = modelSurface(r, {}, new PermissionPolicy({ deny: ['Run', 'Echo(*x*)'] }));
    expect(s.toolNames()).not.toContain('run');
    expect(s.toolNames()).toContain('echo');
    expect(s.toolDefinitions().map((d) => d.name)).not.toContain('run');
  });
});
