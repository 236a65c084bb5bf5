/**
 * The notifications of `a3s serve`, as zod schemas: `event` (one EventEnvelopeV1), `run/result`
 * (how a run settled) and `run/eventsDropped`. `schema.ts` turns them into the shipped JSON Schema.
 */
import { z } from 'zod';

const sessionId = z.string().min(1).max(256).describe('The session id (session/open returns it).');
const runId = z.string().min(1).describe('A run id (session/send returns it; events carry it as metadata.run_id).');

/** Where a run is parked: the answer it waits for. */
export const parkedAt = z.union([
  z.strictObject({
    kind: z.literal('confirm'),
    toolId: z.string(),
    toolName: z.string(),
    args: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({ kind: z.literal('question'), questionId: z.string(), question: z.string() }),
]);

/** Params of the `event` notification: one EventEnvelopeV1, exactly as `a3s run --json` prints it. */
export const eventNotification = z.looseObject({
  version: z.literal(1),
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  metadata: z.looseObject({
    run_id: z.string(),
    session_id: z.string(),
    sequence: z.number().int(),
    timestamp_ms: z.number(),
  }),
});

/** Params of the `run/result` notification: how a run settled (after its last `event`). */
export const runResultNotification = z.strictObject({
  sessionId,
  runId,
  status: z.enum(['completed', 'parked', 'cancelled', 'failed']),
  text: z.string(),
  usage: z.strictObject({ inputTokens: z.number(), outputTokens: z.number() }).nullable(),
  toolCalls: z.number().int().nullable(),
  completion: z.string().nullable(),
  parked: parkedAt
    .optional()
    .describe('What the parked run waits for: answer it with confirmation/answer or question/answer.'),
  error: z
    .strictObject({ code: z.string(), message: z.string() })
    .optional()
    .describe(
      'Why the run failed; also set on a parked run a new prompt superseded (status cancelled, code SUPERSEDED).',
    ),
  deniedCalls: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Calls of the run refused before they ran (a rule, a hook, a confirmation not given); absent when none.'),
  endedBy: z
    .enum(['answer', 'verification', 'budget', 'tool_rounds', 'output_limit', 'refused'])
    .optional()
    .describe(
      "How a completed run ended: answer (the model's final text), verification (a passing verification; text is its summary), budget or tool_rounds (a cap was reached: the task may be unfinished), output_limit (the provider stopped the answer at its output-token limit: text may end mid-sentence), refused (a call put to a person was refused, which ended the turn: the calls after it did not run).",
    ),
  verification: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The passed verification report (a3s.verification_report.v1) the run completed with.'),
  undeliveredSteers: z
    .array(z.strictObject({ requestId: z.string(), text: z.string() }))
    .optional()
    .describe('Steers accepted for the run that never reached the model (the run ended first).'),
  supersededRunId: z
    .string()
    .optional()
    .describe("The parked run this run's prompt ended (its own run/result says cancelled, SUPERSEDED)."),
});

/**
 * Params of the `run/eventsDropped` notification: while the client did not read stdout, this many
 * `event` notifications of the run were dropped (sent once, before the run's next event or its
 * `run/result`). Responses and `run/result` are never dropped; the run's facts are in its log.
 */
export const eventsDroppedNotification = z.strictObject({
  sessionId,
  runId,
  dropped: z.number().int().min(1).describe('How many event notifications of the run were dropped.'),
  firstSequence: z.number().int().describe('metadata.sequence of the first dropped event.'),
  lastSequence: z.number().int().describe('metadata.sequence of the last dropped event.'),
});

/** The params of the `run/result` notification. */
export type RunResultParams = z.input<typeof runResultNotification>;
