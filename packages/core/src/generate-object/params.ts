/**
 * The parameters of `generate_object`, exactly as the seed gives them: names,
 * types, ranges and defaults. One zod schema serves the tool's JSON Schema and validation.
 */
import type { z } from 'zod';
import { attachmentsArg } from '../attachments/attachment-args.js';
import { lazyZod } from '../tools/zod-loader.js';

/** The structured-output modes. */
export const GENERATE_OBJECT_MODES = ['auto', 'strict', 'json', 'tool', 'prompt'] as const;

/** A requested mode. */
export type GenerateObjectMode = (typeof GENERATE_OBJECT_MODES)[number];

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * The zod schema of the arguments of `generate_object`. Built on the first call (which loads zod),
 * so that importing core does not load zod; later calls return the same schema.
 */
export const getGenerateObjectInput = lazyZod((z) =>
  z.strictObject({
    schema: z.record(z.string(), z.unknown()).describe('JSON Schema the generated value must satisfy.'),
    prompt: z
      .string()
      .refine((s) => s.trim() !== '', { message: 'must not be empty or whitespace only' })
      .describe('What to generate or extract.'),
    schema_name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,59}$/, { message: 'must be 1-59 characters, each an ASCII letter, digit, _ or -' })
      .default('result')
      .describe('Name of the output (the synthesised tool in tool mode), 1-59 of [A-Za-z0-9_-]. Default result.'),
    schema_description: z
      .string()
      .max(4096)
      .refine((s) => byteLength(s) <= 4096, { message: 'must be at most 4096 bytes (UTF-8)' })
      .optional()
      .describe('Description of the synthesised tool, at most 4096 bytes.'),
    system: z
      .string()
      .max(32_768)
      .refine((s) => byteLength(s) <= 32_768, { message: 'must be at most 32768 bytes (UTF-8)' })
      .optional()
      .describe('Extra system prompt, at most 32768 bytes.'),
    mode: z
      .enum(GENERATE_OBJECT_MODES, {
        message: `must be one of ${GENERATE_OBJECT_MODES.map((m) => `'${m}'`).join(', ')}`,
      })
      .default('auto')
      .describe('auto | strict | json | tool | prompt (default auto).'),
    max_repair_attempts: z
      .number()
      .int({ message: 'must be an integer in 0..5' })
      .min(0, { message: 'must be an integer in 0..5' })
      .max(5, { message: 'must be an integer in 0..5' })
      .default(2)
      .describe('Retries after a value fails validation, 0-5 (default 2).'),
    include_raw_text: z
      .boolean()
      .default(false)
      .describe('Also return the provider text or tool arguments the value came from.'),
    timeout_ms: z
      .number()
      .int({ message: 'must be an integer in 1000..600000' })
      .min(1000, { message: 'must be an integer in 1000..600000' })
      .max(600_000, { message: 'must be an integer in 1000..600000' })
      .default(120_000)
      .describe('Deadline for active generation in ms, 1000-600000 (default 120000).'),
    attachments: attachmentsArg(z),
  }),
);

/** Arguments as a caller writes them (defaults optional). */
export type GenerateObjectInput = z.input<ReturnType<typeof getGenerateObjectInput>>;

/** Arguments after validation (defaults applied). */
export type GenerateObjectParams = z.output<ReturnType<typeof getGenerateObjectInput>>;
