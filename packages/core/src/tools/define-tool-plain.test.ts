import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { declaresPlainInput, defineTool, zodInputIsPlain, zodInputSchema } from './define-tool.js';
import type { ToolContext } from './tool-context.js';

const ctx = {} as ToolContext;
const input = z.strictObject({
  path: z.string().min(1),
  mode: z.enum(['a', 'b']).default('a'),
  offset: z.number().int().min(0).optional(),
});
const seen: unknown[] = [];
const options = {
  name: 'plainly',
  description: 'a plain tool',
  tier: 'read' as const,
  input,
  refine: (v: z.output<typeof input>) =>
    v.mode === 'b' && v.offset === undefined ? [{ path: ['offset'], message: 'is required with mode "b"' }] : [],
  execute: async (args: z.output<typeof input>) => {
    seen.push(args);
    return { output: JSON.stringify(args), exitCode: 0 };
  },
};
const plain = defineTool({ ...options, inputJsonSchema: zodInputSchema(input), plainInput: true });
const viaZod = defineTool(options);

describe('defineTool with plainInput and refine', () => {
  it('a plain tool gets the same parsed arguments as through zod: defaults filled in, unknown fields never passed', async () => {
    for (const args of [{ path: 'x' }, { path: 'x', mode: 'b', offset: 2 }]) {
      const a = await plain.execute(args as never, ctx);
      const b = await viaZod.execute(args as never, ctx);
      expect(a).toEqual(b);
    }
    expect(seen.at(-1)).toEqual({ path: 'x', mode: 'b', offset: 2 });
    expect(declaresPlainInput(plain)).toBe(true);
    expect(declaresPlainInput(viaZod)).toBe(false);
    expect(zodInputIsPlain(plain)).toEqual({ plain: true });
  });

  it('bad arguments given straight to execute (past the kernel) are still refused, with zod’s explanation', async () => {
    for (const tool of [plain, viaZod]) {
      await expect(tool.execute({ path: '' } as never, ctx)).rejects.toMatchObject({
        code: 'INVALID_TOOL_ARGS',
        field: 'args.path',
      });
      await expect(tool.execute({ path: 'x', extra: 1 } as never, ctx)).rejects.toBeInstanceOf(InvalidToolArgsError);
      await expect(tool.execute({ path: 'x', offset: 1.5 } as never, ctx)).rejects.toMatchObject({
        field: 'args.offset',
      });
    }
  });

  it('refine runs on both paths, after the structure is valid, and names its field', async () => {
    for (const tool of [plain, viaZod]) {
      const e = await tool.execute({ path: 'x', mode: 'b' } as never, ctx).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidToolArgsError);
      expect(e).toMatchObject({ field: 'args.offset', message: expect.stringContaining('is required with mode "b"') });
    }
    // capabilitiesFor parses the same way.
    const capped = defineTool({
      ...options,
      name: 'capped',
      inputJsonSchema: zodInputSchema(input),
      plainInput: true,
      capabilitiesFor: (a) => ({ readOnly: a.mode === 'a' }),
    });
    expect(capped.capabilitiesFor?.({ path: 'x' } as never)).toEqual({ readOnly: true });
    expect(() => capped.capabilitiesFor?.({ path: 'x', mode: 'b' } as never)).toThrow(InvalidToolArgsError);
  });

  it('zodInputIsPlain names why a schema is not plain', () => {
    const t = defineTool({ ...options, name: 'trimmed', input: z.strictObject({ path: z.string().trim() }) as never });
    expect(zodInputIsPlain(t)).toEqual({ plain: false, why: "args.path: check 'overwrite'" });
  });
});
