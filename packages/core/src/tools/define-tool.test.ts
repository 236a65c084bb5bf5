import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { A3sError } from '@a3s-code/effect';
import { defineTool, zodJsonSchemaOf } from './define-tool.js';
import { defineToolPack } from './tool-pack.js';
import { ToolRegistry } from '../registry/tool-registry.js';
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

describe('defineTool with a precomputed JSON Schema', () => {
  const builder = vi.fn((zz: typeof z) => zz.strictObject({ text: zz.string().min(1) }));
  const precomputed = {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 } },
    required: ['text'],
    additionalProperties: false,
  };
  const echo = defineTool({
    name: 'echo',
    description: 'echo',
    tier: 'read',
    inputJsonSchema: precomputed,
    input: builder,
    execute: async (args) => ({ output: args.text, exitCode: 0 }),
  });

  it('offers the precomputed schema (registering needs no zod) and parses calls with zod', async () => {
    const registry = new ToolRegistry();
    registry.add(echo);
    expect(registry.toolDefinitions()[0]?.inputSchema).toBe(precomputed);
    expect(builder).not.toHaveBeenCalled();
    expect(await echo.execute({ text: 'hi' }, ctx)).toEqual({ output: 'hi', exitCode: 0 });
    await expect(echo.execute({ text: '' }, ctx)).rejects.toBeInstanceOf(InvalidToolArgsError);
    expect(builder).toHaveBeenCalledTimes(1);
  });

  it('zodJsonSchemaOf gives zod’s own schema, to check a precomputed one against', () => {
    expect(zodJsonSchemaOf(echo)).toEqual(precomputed);
    const drifted = defineTool({ ...echo, inputJsonSchema: { type: 'object' }, input: builder });
    expect(zodJsonSchemaOf(drifted)).not.toEqual(drifted.inputSchema);
    expect(zodJsonSchemaOf({ ...echo })).toBeUndefined();
  });

  it('a non-object precomputed schema fails at definition', () => {
    expect(() => defineTool({ ...echo, inputJsonSchema: { type: 'string' }, input: builder })).toThrow(
      /inputSchema\.type/,
    );
  });
});

describe('ToolRegistry and schemas built on first read', () => {
  it('a tool waiting for a capability has its schema built (and checked) only when it joins the surface', () => {
    const built = vi.fn((zz: typeof z) => zz.object({ n: zz.number() }));
    const waiting = defineTool({
      name: 'waits',
      description: 'd',
      tier: 'read',
      requires: ['resource.thing'],
      input: built,
      execute: async () => ({ output: '', exitCode: 0 }),
    });
    const registry = new ToolRegistry();
    expect(registry.add(waiting).pending).toEqual([{ name: 'waits', missing: ['resource.thing'] }]);
    expect(built).not.toHaveBeenCalled();
    expect(registry.provide(['resource.thing']).registered).toEqual(['waits']);
    expect(built).toHaveBeenCalledTimes(1);
    registry.withdraw(['resource.thing']);
    const bad = defineTool({
      name: 'bad',
      description: 'd',
      tier: 'read',
      requires: ['resource.thing'],
      input: (zz) => zz.string() as never,
      execute: async () => ({ output: '', exitCode: 0 }),
    });
    registry.add(bad);
    expect(() => registry.provide(['resource.thing'])).toThrow(/inputSchema\.type/);
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
