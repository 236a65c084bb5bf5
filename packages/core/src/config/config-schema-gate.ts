/**
 * The zod schema of `gate.requiredChecks`: checks the host requires in every report of the
 * `verify` tool (see `GateOptions.requiredChecks`), each a strict `{ id, command, kind?,
 * description?, timeoutMs? }` with a unique id.
 */
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';
import { objectIssue } from './config-schema-vibe.js';

/** Builds the schema of `gate.requiredChecks`. */
export function requiredChecksSchema(z: Zod): z.ZodType<readonly object[]> {
  const keys = 'id, command, kind, description, timeoutMs';
  const idError = 'must be a string of 1 to 64 letters, digits, ., _ or -';
  const timeoutError = 'must be an integer from 1000 to 3600000';
  const check = z.strictObject(
    {
      id: z.string({ error: idError }).regex(/^[A-Za-z0-9._-]{1,64}$/, { error: idError }),
      command: z
        .string({ error: 'must be a non-empty shell command' })
        .min(1, { error: 'must be a non-empty shell command' })
        .max(100_000, { error: 'must be at most 100000 characters' }),
      kind: z
        .string({ error: 'must be a non-empty string' })
        .min(1, { error: 'must be a non-empty string' })
        .max(64, { error: 'must be at most 64 characters' })
        .optional(),
      description: z
        .string({ error: 'must be a string' })
        .max(2000, { error: 'must be at most 2000 characters' })
        .optional(),
      timeoutMs: z
        .number({ error: timeoutError })
        .int({ error: timeoutError })
        .min(1000, { error: timeoutError })
        .max(3_600_000, { error: timeoutError })
        .optional(),
    },
    { error: objectIssue(`allowed keys: ${keys}`, `must be an object with keys ${keys}`) },
  );
  return z
    .array(check, { error: 'must be an array of { id, command, kind?, description?, timeoutMs? }' })
    .max(16, { error: 'must hold at most 16 checks' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((c, i) => {
        if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicates '${c.id}'` });
        seen.add(c.id);
      });
    });
}
