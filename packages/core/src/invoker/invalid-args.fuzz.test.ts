/**
 * Fuzz: for every tool of the test pack, random invalid argument objects are rejected
 * with a typed INVALID_TOOL_ARGS error naming the corrupted field, and never reach confirmation
 * or execution.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/effect';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import { createTestInvocation, createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { ToolInvoker } from './tool-invoker.js';

const VALID: Record<string, Record<string, unknown>> = {
  echo: { text: 'hi', times: 2 },
  add: { a: 1, b: 2 },
  sleep: { ms: 0 },
  noop: {},
  fail: { message: 'm' },
  write_note: { path: 'p', content: 'c', mode: 'append' },
  run: { command: 'ls', args: ['-l'] },
  nest: { tool: 'echo', args: { text: 'x' } },
  batch: { calls: [{ tool: 'echo', args: { text: 'x' } }] },
};

const jsonValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

function fitsType(schema: JsonSchema, value: unknown): boolean {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      // enums (zod emits `type: "string"` with `enum`), handled by the string case; be strict here.
      return true;
  }
}

type Corruption = { args: unknown; field: string };

function corruptions(schema: JsonSchema, valid: Record<string, unknown>): fc.Arbitrary<Corruption> {
  const props = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const options: fc.Arbitrary<Corruption>[] = [
    fc
      .oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer()))
      .map((args) => ({ args, field: 'args' })),
    fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((k) => !(k in (schema.properties ?? {})) && k !== '__proto__')
      .chain((k) => jsonValue.map((v) => ({ args: { ...valid, [k]: v }, field: `args.${k}` }))),
  ];
  if (required.length > 0) {
    options.push(
      fc.constantFrom(...required).map((k) => {
        const { [k]: _drop, ...rest } = valid;
        return { args: rest, field: `args.${k}` };
      }),
    );
  }
  if (props.length > 0) {
    options.push(
      fc
        .constantFrom(...props)
        .chain(([k, s]) =>
          jsonValue.filter((v) => !fitsType(s, v)).map((v) => ({ args: { ...valid, [k]: v }, field: `args.${k}` })),
        ),
    );
  }
  return fc.oneof(...options);
}

describe('BND-01: invalid arguments never reach confirmation or execution', () => {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: ['fs.write', 'exec'] });
  registry.registerPack(pack);
  registry.add(createBatchTool());
  const confirmation = new ScriptedConfirmationManager(Array.from({ length: 10_000 }, () => true));
  const invoker = new ToolInvoker({ registry, confirmation });

  it('every tool of the test pack has a valid sample (and it is accepted)', async () => {
    expect(Object.keys(VALID).sort()).toEqual([...registry.toolNames()].sort());
    for (const name of registry.toolNames()) {
      const r = await invoker.invoke(
        { id: `ok-${name}`, name, args: VALID[name] },
        createTestInvocation().context,
        'host',
      );
      expect(r.errorKind === undefined || r.errorKind === 'tool_failed', `${name}: ${r.output}`).toBe(true);
    }
    state.executions.length = 0;
    confirmation.requests.length = 0;
  });

  for (const tool of registry.tools()) {
    it(`BND-01: 100 random invalid args for '${tool.name}' give INVALID_TOOL_ARGS naming the field`, async () => {
      const valid = VALID[tool.name] as Record<string, unknown>;
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          corruptions(tool.inputSchema, valid),
          fc.constantFrom<'agent' | 'host'>('agent', 'host'),
          async ({ args, field }, source) => {
            n += 1;
            const r = await invoker.invoke(
              { id: `f${n}`, name: tool.name, args },
              createTestInvocation().context,
              source,
            );
            expect(r.errorKind).toBe('invalid_args');
            expect(r.error).toBeInstanceOf(InvalidToolArgsError);
            expect(A3sError.hasCode(r.error, 'INVALID_TOOL_ARGS')).toBe(true);
            expect((r.error as InvalidToolArgsError).field).toBe(field);
            expect(r.output).toContain(field);
          },
        ),
        { numRuns: 100 },
      );
      expect(n).toBeGreaterThanOrEqual(100);
      expect(state.executions).toHaveLength(0);
      expect(confirmation.requests).toHaveLength(0);
    });
  }

  it('BND-01: arguments nested too deep even to print are refused as invalid; the call resolves and its event says so', async () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const args of [deep, { text: deep }]) {
      const t = createTestInvocation();
      const r = await invoker.invoke({ id: 'deep', name: 'echo', args }, t.context);
      expect(r.errorKind).toBe('invalid_args');
      const start = t.events.payloads('toolStart')[0] as { args: unknown; args_truncated?: boolean };
      expect(start.args_truncated).toBe(true);
      expect(JSON.stringify(start.args).length).toBeLessThan(20_000);
    }
    expect(state.executions).toHaveLength(0);
  });
});
