/**
 * The zod schema of `CodeConfig.vibe`: `true`, `false`, or `{ enabled?, tiers?: { fast?, good? },
 * maxWorkers? }`, each message saying what is allowed.
 */
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';

/** The vibe tiers a config may name under `vibe.tiers`. */
const VIBE_TIERS: readonly string[] = Object.freeze(['fast', 'good']);

/** Builds the schema; `modelRef` checks a tier's model, `workers` the `maxWorkers` bound. */
export function vibeSchema(z: Zod, modelRef: z.ZodType<string>, workers: z.ZodType<number>) {
  const vibeTiers = z.strictObject(
    { fast: modelRef.optional(), good: modelRef.optional() },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `allowed tiers: ${VIBE_TIERS.join(', ')}`
          : iss.code === 'invalid_type'
            ? `must be an object with the tiers ${VIBE_TIERS.join(', ')}`
            : undefined,
    },
  );
  const keys = 'enabled, tiers, maxWorkers';
  const settings = z.strictObject(
    {
      enabled: z.boolean({ error: 'must be true or false' }).optional(),
      tiers: vibeTiers.optional(),
      maxWorkers: workers.optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `allowed keys: ${keys}`
          : iss.code === 'invalid_type'
            ? `must be an object with keys ${keys}`
            : undefined,
    },
  );
  return z.union([z.boolean(), settings], {
    error: 'must be true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? }',
  });
}
