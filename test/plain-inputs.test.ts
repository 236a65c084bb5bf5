import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../packages/core/src/index.js';
import { declaresPlainInput, zodInputIsPlain } from '../packages/core/src/tools/define-tool.js';
import { parsePlainArgs, UNSURE } from '../packages/core/src/tools/plain-args.js';
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
      expect.arrayContaining(['read', 'write', 'edit', 'patch', 'grep', 'glob', 'ls', 'bash', 'git']),
    );
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
});
