import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../packages/core/src/index.js';
import { declaresPlainInput, zodInputIsPlain } from '../packages/core/src/tools/define-tool.js';
import { parsePlainArgs, surelyValidArgs, UNSURE, walkedValidArgs } from '../packages/core/src/tools/plain-args.js';
import { valuesOf } from '../packages/core/src/tools/test-support/schema-arbitrary.js';
import { newAjv2020 } from '../packages/core/src/invoker/ajv-loader.js';
import { toolSchemaSets } from '../scripts/tool-json-schemas.js';

// The built-in tools declared `plainInput` are called without zod when their arguments pass the
// fast path. The declaration must be exact (every plain tool declares it, no other tool does),
// and on fuzzed arguments the fast path must give what zod gives, or stand aside.
const ZOD_INPUT = Symbol.for('@a3s-code/core.tool-zod-input');
type Parse = { safeParse(v: unknown): { success: boolean; data?: unknown } };
const zodOf = (tool: Tool): Parse => (tool as unknown as Record<symbol, () => Parse>)[ZOD_INPUT]!();

const tools = toolSchemaSets().flatMap((set) => set.tools.map((tool) => [`${set.pkg}: ${tool.name}`, tool] as const));
const ajv = newAjv2020({ allErrors: true, strict: false, validateSchema: false });

describe('built-in tools with plain inputs', () => {
  it.each(tools)('%s declares plainInput exactly when its zod schema is plain', (_name, tool) => {
    const verdict = zodInputIsPlain(tool);
    expect(declaresPlainInput(tool), verdict.why ?? 'plain').toBe(verdict.plain);
  });

  it('most built-in tools are plain (the common calls need no zod)', () => {
    const plain = tools.filter(([, t]) => declaresPlainInput(t)).map(([, t]) => t.name);
    expect(plain).toEqual(
      expect.arrayContaining([
        'read',
        'write',
        'edit',
        'patch',
        'grep',
        'glob',
        'ls',
        'bash',
        'git',
        'batch',
        'program',
      ]),
    );
    // generate_object keeps zod: its schema is public (getGenerateObjectInput) and carries its refinements.
    expect(tools.filter(([, t]) => !declaresPlainInput(t)).map(([, t]) => t.name)).toEqual(['generate_object']);
  });

  it.each(tools.filter(([, t]) => declaresPlainInput(t)))(
    '%s: on fuzzed arguments the fast path parses as zod does, or is unsure',
    (_name, tool) => {
      const zod = zodOf(tool);
      const { $schema: _s, ...schema } = tool.inputSchema;
      const validate = ajv.compile(schema);
      let sure = 0;
      fc.assert(
        fc.property(valuesOf(tool.inputSchema), (v) => {
          expect(surelyValidArgs(tool.inputSchema, v)).toBe(walkedValidArgs(tool.inputSchema, v));
          const fast = parsePlainArgs(tool.inputSchema, v);
          if (fast === UNSURE) return;
          sure += 1;
          expect(validate(v), JSON.stringify(v)).toBe(true);
          const parsed = zod.safeParse(v);
          expect(parsed.success, JSON.stringify(v)).toBe(true);
          expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
          expect(isDeepStrictEqual(fast, parsed.data), JSON.stringify(v)).toBe(true);
        }),
        { numRuns: 150 },
      );
      expect(sure, 'the fast path was taken').toBeGreaterThan(0);
    },
  );

  it('the rules across fields, moved from zod to refine, still refuse with the same field and message', async () => {
    const byName = new Map(tools.map(([, t]) => [t.name, t]));
    const refused = async (name: string, args: Record<string, unknown>) => {
      const e = await byName
        .get(name)!
        .execute(args, {} as ToolContext)
        .catch((x: unknown) => x);
      expect(e, `${name} ${JSON.stringify(args)}`).toMatchObject({ code: 'INVALID_TOOL_ARGS' });
      return e as { field: string; message: string };
    };
    expect(await refused('read', {})).toMatchObject({
      field: 'args.file_path',
      message: expect.stringContaining('give exactly one of file_path or files'),
    });
    expect(await refused('read', { files: [{ path: 'a' }], limit: 3 })).toMatchObject({ field: 'args.limit' });
    expect(await refused('write', { file_path: 'a', content: 'x', expected_offset: 0 })).toMatchObject({
      field: 'args.expected_offset',
    });
    expect(await refused('edit', { file_path: 'a', old_string: 'x', new_string: 'x' })).toMatchObject({
      field: 'args.new_string',
      message: expect.stringContaining('must differ from old_string'),
    });
    expect(await refused('git', { operation: 'status', ref: 'main' })).toMatchObject({
      field: 'args.ref',
      message: expect.stringContaining("is not used by operation 'status'"),
    });
    expect(await refused('git', { operation: 'checkout' })).toMatchObject({ field: 'args.ref' });
    expect(await refused('program', { source: 'x', path: 'a.js' })).toMatchObject({
      field: 'args.source',
      message: expect.stringContaining('give exactly one of source or path'),
    });
    expect(await refused('eval', { code: '1', description: 'too short' })).toMatchObject({
      field: 'args.description',
      message: expect.stringContaining('description must be 5 to 10 words'),
    });
    expect(await refused('vibe_spawn', { brief: '   ', label: 'x' })).toMatchObject({ field: 'args.brief' });
    expect(await refused('vibe_send', { worker_id: 'w1', message: ' ' })).toMatchObject({ field: 'args.message' });
    expect(await refused('dynamic_workflow', { query: 'q' })).toMatchObject({
      field: 'args.flow',
      message: expect.stringContaining('give exactly one of flow or workflow'),
    });
    expect(await refused('dynamic_workflow', { flow: 'f', query: '  ' })).toMatchObject({ field: 'args.query' });
    const branch = { agent: byName.get('task')!.inputSchema.properties!.agent!.enum, prompt: 'p', description: 'd' };
    const tasks = [0, 1].map(() => ({ ...branch, agent: (branch.agent as string[])[0] }));
    expect(await refused('parallel_task', { tasks, min_success_count: 1 })).toMatchObject({
      field: 'args.min_success_count',
      message: expect.stringContaining('only together with allow_partial_failure'),
    });
    expect(await refused('parallel_task', { tasks, allow_partial_failure: true, min_success_count: 3 })).toMatchObject({
      field: 'args.min_success_count',
    });
  });
});
