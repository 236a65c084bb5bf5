/**
 * The zod schema of `CodeConfig.vibe`: `true`, `false`, or `{ enabled?, tiers?: { fast?, good? },
 * maxWorkers? }`, each message saying what is allowed.
 */
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';

/**
 * The message of a strict object's own issues: `allowed` for an unknown key, `expected` for a value
 * that is not an object; other issues keep their own message.
 */
export function objectIssue(allowed: string, expected: string) {
  return (iss: { readonly code: string }): string | undefined =>
    iss.code === 'unrecognized_keys' ? allowed : iss.code === 'invalid_type' ? expected : undefined;
}

/** The vibe tiers a config may name under `vibe.tiers`. */
const VIBE_TIERS: readonly string[] = Object.freeze(['fast', 'good']);

/** Builds the schema; `modelRef` checks a tier's model, `workers` the `maxWorkers` bound. */
export function vibeSchema(z: Zod, modelRef: z.ZodType<string>, workers: z.ZodType<number>) {
  const vibeTiers = z.strictObject(
    { fast: modelRef.optional(), good: modelRef.optional() },
    {
      error: objectIssue(
        `allowed tiers: ${VIBE_TIERS.join(', ')}`,
        `must be an object with the tiers ${VIBE_TIERS.join(', ')}`,
      ),
    },
  );
  const keys = 'enabled, tiers, maxWorkers';
  const settings = z.strictObject(
    {
      enabled: z.boolean({ error: 'must be true or false' }).optional(),
      tiers: vibeTiers.optional(),
      maxWorkers: workers.optional(),
    },
    { error: objectIssue(`allowed keys: ${keys}`, `must be an object with keys ${keys}`) },
  );
  return z.union([z.boolean(), settings], {
    error: 'must be true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? }',
  });
}
