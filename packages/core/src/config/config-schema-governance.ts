/**
 * The zod schema of `CodeConfig.governance` (a `GovernanceSnapshot`): a strict object whose every
 * key has the type the kernel reads, so a host's `{ yolo: 'true' }` or `{ mode: 'Plan' }` is
 * refused naming the key instead of being read as "not set" (full access where plan mode was meant).
 * `budget` is not here: it was renamed to `budgets.toolCalls`, and that refusal comes first.
 */
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';
import { objectIssue } from './config-schema-vibe.js';

/** The tool tiers `governance.tiers` and a restriction's `tiers` may name. */
const GOVERNANCE_TIERS: readonly string[] = Object.freeze(['read', 'write', 'exec']);

/** Builds the schema of `governance`. */
export function governanceSchema(z: Zod): z.ZodType<object> {
  const strict = <T extends z.core.$ZodLooseShape>(shape: T, what: string) => {
    const keys = Object.keys(shape).join(', ');
    return z.strictObject(shape, {
      error: objectIssue(`allowed keys: ${keys}`, `must be ${what} with keys ${keys}`),
    });
  };
  const bool = z.boolean({ error: 'must be true or false' });
  const ruleList = z.array(z.string({ error: 'must be a permission rule string' }), {
    error: 'must be an array of permission rules',
  });
  const tiers = z.array(
    z.enum(['read', 'write', 'exec'], { error: `must be one of ${GOVERNANCE_TIERS.map((t) => `'${t}'`).join(', ')}` }),
    { error: `must be an array of tiers (${GOVERNANCE_TIERS.join(', ')})` },
  );
  const name = z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' });
  return strict(
    {
      mode: z.enum(['default', 'plan'], { error: "must be 'default' or 'plan'" }).optional(),
      readOnly: bool.optional(),
      yolo: bool.optional(),
      skill: strict({ name, allowedTools: ruleList }, 'a skill restriction').optional(),
      tiers: tiers.optional(),
      restrictions: z
        .array(
          strict(
            { name, allowedTools: ruleList.optional(), deniedTools: ruleList.optional(), tiers: tiers.optional() },
            'a tool restriction',
          ),
          { error: 'must be an array of tool restrictions' },
        )
        .optional(),
      delegationDepth: z
        .number({ error: 'must be an integer >= 0' })
        .int({ error: 'must be an integer >= 0' })
        .min(0, { error: 'must be an integer >= 0' })
        .optional(),
    },
    'a GovernanceSnapshot object',
  );
}
