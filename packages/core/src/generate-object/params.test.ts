import { describe, expect, it } from 'vitest';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { parseGenerateObjectInput } from './generate-object.js';
import { createGenerateObjectTool } from './generate-object-tool.js';
import { SENTIMENT_SCHEMA, scripted } from './test-support/clients.js';

const base = { schema: SENTIMENT_SCHEMA, prompt: 'Classify: "great product"' };

function rejects(args: Record<string, unknown>): InvalidToolArgsError {
  try {
    parseGenerateObjectInput({ ...base, ...args });
  } catch (e) {
    if (e instanceof InvalidToolArgsError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(Object.keys(args))} to be rejected`);
}

const accepts = (args: Record<string, unknown>) => parseGenerateObjectInput({ ...base, ...args });

describe('generate_object parameters: every range edge (GENOBJ-06..14)', () => {
  it('GENOBJ-06: schema is required and must be an object', () => {
    const { schema: _s, ...noSchema } = base;
    expect(() => parseGenerateObjectInput(noSchema)).toThrow(/args\.schema/);
    expect(rejects({ schema: 'string' }).field).toBe('args.schema');
    expect(rejects({ schema: [1] }).field).toBe('args.schema');
  });

  it('GENOBJ-07: prompt is required; empty and whitespace-only are rejected', () => {
    expect(rejects({ prompt: '' }).message).toContain('args.prompt: must not be empty or whitespace only');
    expect(rejects({ prompt: ' \n\t ' }).field).toBe('args.prompt');
    expect(rejects({ prompt: undefined }).field).toBe('args.prompt');
    expect(accepts({ prompt: 'x' }).prompt).toBe('x');
  });

  it('GENOBJ-08: schema_name is 1-59 of [A-Za-z0-9_-], default result', () => {
    expect(accepts({}).schema_name).toBe('result');
    expect(accepts({ schema_name: 'a' }).schema_name).toBe('a');
    expect(accepts({ schema_name: 'A'.repeat(59) }).schema_name).toHaveLength(59);
    expect(accepts({ schema_name: 'Az09_-' }).schema_name).toBe('Az09_-');
    expect(rejects({ schema_name: '' }).message).toContain(
      'args.schema_name: must be 1-59 characters, each an ASCII letter, digit, _ or -',
    );
    expect(rejects({ schema_name: 'A'.repeat(60) }).field).toBe('args.schema_name');
    for (const bad of ['has space', 'dot.name', 'ümlaut', 'slash/x'])
      expect(rejects({ schema_name: bad }).field).toBe('args.schema_name');
  });

  it('GENOBJ-09: schema_description is at most 4096 bytes (UTF-8), not characters', () => {
    expect(accepts({ schema_description: 'x'.repeat(4096) }).schema_description).toHaveLength(4096);
    expect(rejects({ schema_description: 'x'.repeat(4097) }).field).toBe('args.schema_description');
    expect(accepts({ schema_description: '你'.repeat(1365) }).schema_description).toHaveLength(1365); // 4095 bytes
    expect(rejects({ schema_description: '你'.repeat(1366) }).message).toContain('at most 4096 bytes'); // 4098 bytes
  });

  it('GENOBJ-10: system is at most 32768 bytes', () => {
    expect(accepts({ system: 's'.repeat(32_768) }).system).toHaveLength(32_768);
    expect(rejects({ system: 's'.repeat(32_769) }).field).toBe('args.system');
    expect(rejects({ system: 'é'.repeat(16_385) }).message).toContain('at most 32768 bytes');
  });

  it('GENOBJ-11: mode accepts only auto/strict/json/tool/prompt, default auto', () => {
    expect(accepts({}).mode).toBe('auto');
    for (const mode of ['auto', 'strict', 'json', 'tool', 'prompt']) expect(accepts({ mode }).mode).toBe(mode);
    const e = rejects({ mode: 'fast' });
    expect(e.field).toBe('args.mode');
    expect(e.message).toContain("must be one of 'auto', 'strict', 'json', 'tool', 'prompt'");
    expect(rejects({ mode: 'TOOL' }).field).toBe('args.mode');
  });

  it('GENOBJ-12: max_repair_attempts is an integer 0..5, default 2', () => {
    expect(accepts({}).max_repair_attempts).toBe(2);
    expect(accepts({ max_repair_attempts: 0 }).max_repair_attempts).toBe(0);
    expect(accepts({ max_repair_attempts: 5 }).max_repair_attempts).toBe(5);
    for (const bad of [-1, 6, 1.5])
      expect(rejects({ max_repair_attempts: bad }).message).toContain(
        'args.max_repair_attempts: must be an integer in 0..5',
      );
  });

  it('GENOBJ-13: include_raw_text is a boolean, default false', () => {
    expect(accepts({}).include_raw_text).toBe(false);
    expect(accepts({ include_raw_text: true }).include_raw_text).toBe(true);
    expect(rejects({ include_raw_text: 'yes' }).field).toBe('args.include_raw_text');
  });

  it('GENOBJ-14: timeout_ms is an integer 1000..600000, default 120000', () => {
    expect(accepts({}).timeout_ms).toBe(120_000);
    expect(accepts({ timeout_ms: 1000 }).timeout_ms).toBe(1000);
    expect(accepts({ timeout_ms: 600_000 }).timeout_ms).toBe(600_000);
    for (const bad of [999, 600_001, 1000.5])
      expect(rejects({ timeout_ms: bad }).message).toContain('args.timeout_ms: must be an integer in 1000..600000');
  });

  it('unknown arguments are rejected', () => {
    expect(rejects({ response_schema: {} }).field).toBe('args');
  });

  it("the tool's JSON Schema states the same ranges for the model and the kernel's validator", () => {
    const tool = createGenerateObjectTool(scripted([]).client);
    const props = tool.inputSchema.properties!;
    expect(tool.inputSchema.required).toEqual(['schema', 'prompt']);
    expect(props.schema_name).toMatchObject({ pattern: '^[A-Za-z0-9_-]{1,59}$', default: 'result' });
    expect(props.mode).toMatchObject({ enum: ['auto', 'strict', 'json', 'tool', 'prompt'], default: 'auto' });
    expect(props.max_repair_attempts).toMatchObject({ type: 'integer', minimum: 0, maximum: 5, default: 2 });
    expect(props.timeout_ms).toMatchObject({ type: 'integer', minimum: 1000, maximum: 600_000, default: 120_000 });
    expect(props.schema_description).toMatchObject({ maxLength: 4096 });
    expect(props.system).toMatchObject({ maxLength: 32_768 });
    expect(props.include_raw_text).toMatchObject({ type: 'boolean', default: false });
  });
});
