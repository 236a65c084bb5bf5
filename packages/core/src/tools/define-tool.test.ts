import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { A3sError } from '@a3s-code/effect';
import { defineTool } from './define-tool.js';
import { defineToolPack } from './tool-pack.js';
import { resolveCapabilities } from './tool.js';
import { InvalidToolArgsError, ToolDefinitionError } from '../errors/tool-errors.js';
import type { ToolContext } from './tool-context.js';

const ctx = {} as ToolContext;

const edit = defineTool({
  name: 'edit',
  description: 'replace text',
  tier: 'write',
  input: z.object({
    file_path: z.string(),
    dry_run: z.boolean().default(false),
    count: z.number().int().min(1).optional(),
  }),
  capabilitiesFor: (args) => (args.dry_run ? { readOnly: true, idempotent: true } : {}),
  execute: async (args) => ({ output: `${args.file_path}:${String(args.dry_run)}`, exitCode: 0 }),
});

describe('defineTool', () => {
  it('TOOL-contract: emits the input-side JSON Schema (defaulted fields optional, no $schema)', () => {
    expect(edit.inputSchema.type).toBe('object');
    expect(edit.inputSchema.required).toEqual(['file_path']);
    expect(edit.inputSchema.$schema).toBeUndefined();
    expect(Object.keys(edit.inputSchema.properties ?? {})).toEqual(['file_path', 'dry_run', 'count']);
  });

  it('execute receives parsed output with defaults applied', async () => {
    await expect(edit.execute({ file_path: 'a.ts' } as never, ctx)).resolves.toEqual({
      output: 'a.ts:false',
      exitCode: 0,
    });
  });

  it('execute rejects args zod refuses with INVALID_TOOL_ARGS naming the field', async () => {
    const err = await edit.execute({ file_path: 'a', count: 0 } as never, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidToolArgsError);
    expect(A3sError.hasCode(err, 'INVALID_TOOL_ARGS')).toBe(true);
    expect((err as InvalidToolArgsError).field).toBe('args.count');
  });

  it('BND-02 / EDIT-04: capabilities may depend on args (dry_run is read-only)', () => {
    expect(resolveCapabilities(edit, { file_path: 'a', dry_run: true }).readOnly).toBe(true);
    expect(resolveCapabilities(edit, { file_path: 'a', dry_run: false }).readOnly).toBe(false);
    expect(resolveCapabilities(edit, { file_path: 'a', dry_run: false }).maxParallelism).toBe(16);
  });

  it('rejects a bad name, tier, capability or non-object schema naming the field', () => {
    const base = {
      description: 'd',
      tier: 'read' as const,
      input: z.object({}),
      execute: async () => ({ output: '', exitCode: 0 }),
    };
    const field = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ToolDefinitionError);
        return (e as ToolDefinitionError).field;
      }
      throw new Error('did not throw');
    };
    expect(field(() => defineTool({ ...base, name: '1bad' }))).toBe('name');
    expect(field(() => defineTool({ ...base, name: 'x', tier: 'root' as never }))).toBe('tier');
    expect(field(() => defineTool({ ...base, name: 'x', capabilities: { maxParallelism: 0 } }))).toBe(
      'capabilities.maxParallelism',
    );
    expect(field(() => defineTool({ ...base, name: 'x', requires: ['fs.delete' as never] }))).toBe('requires[0]');
    expect(field(() => defineTool({ ...base, name: 'x', input: z.string() as never }))).toBe('inputSchema.type');
  });
});

describe('defineTool with a schema builder', () => {
  const built = vi.fn((zz: typeof z) =>
    zz.object({
      file_path: zz.string(),
      dry_run: zz.boolean().default(false),
      count: zz.number().int().min(1).optional(),
    }),
  );
  const lazy = defineTool({
    name: 'edit',
    description: 'replace text',
    tier: 'write',
    input: built,
    capabilitiesFor: (args) => (args.dry_run ? { readOnly: true, idempotent: true } : {}),
    execute: async (args) => ({ output: `${args.file_path}:${String(args.dry_run)}`, exitCode: 0 }),
  });

  it('builds the schema once, on first use, and behaves like the eager definition', async () => {
    expect(built).not.toHaveBeenCalled();
    expect(lazy.inputSchema).toEqual(edit.inputSchema);
    expect(await lazy.execute({ file_path: 'a.ts' } as never, ctx)).toEqual({ output: 'a.ts:false', exitCode: 0 });
    expect(resolveCapabilities(lazy, { file_path: 'a', dry_run: true } as never).readOnly).toBe(true);
    await expect(lazy.execute({ file_path: 1 } as never, ctx)).rejects.toBeInstanceOf(InvalidToolArgsError);
    expect(built).toHaveBeenCalledTimes(1);
  });

  it('a pack does not build it; a builder of a non-object schema fails when first read', () => {
    const bad = defineTool({
      name: 'bad',
      description: '',
      tier: 'read',
      input: (zz) => zz.string() as never,
      execute: async () => ({ output: '', exitCode: 0 }),
    });
    expect(defineToolPack({ name: 'p', version: '1.0.0', tools: [bad] }).tools).toHaveLength(1);
    expect(() => bad.inputSchema).toThrow(ToolDefinitionError);
    expect(() => bad.inputSchema).toThrow(/inputSchema\.type/);
  });
});

describe('defineToolPack', () => {
  it('rejects duplicate names and a non-semver version', () => {
    expect(() => defineToolPack({ name: 'p', version: '1.0.0', tools: [edit, edit] })).toThrow(
      /tools\[1\]\.name: duplicate/,
    );
    expect(() => defineToolPack({ name: 'p', version: 'v1', tools: [] })).toThrow(/version/);
    expect(defineToolPack({ name: 'p', version: '1.0.0', tools: [edit] }).tools).toHaveLength(1);
  });
});
