/**
 * The messages of `a3s serve`, as zod schemas: the params every method accepts (validated before
 * a handler runs, so a bad request is answered with the field that is wrong), the result it
 * answers with, and the params of the server's notifications. `schema.ts` turns them into the
 * JSON Schema the package ships; the docs (`docs/serve.md`) describe them in prose.
 */
import { z } from 'zod';
import { tierModelProblem, VIBE_TIER_NAMES, VIBE_WORKER_BOUNDS } from '../vibe-settings.js';
import { eventNotification, eventsDroppedNotification, runResultNotification } from './notifications.js';

export {
  eventNotification,
  eventsDroppedNotification,
  parkedAt,
  type RunResultParams,
  runResultNotification,
} from './notifications.js';

/** The protocol version this server speaks (`initialize` answers with it). */
export const SERVE_PROTOCOL_VERSION = 1;

/**
 * A params object that refuses unknown fields, naming the fields it allows (the error of
 * `params.colour` then says `allowed: workspace, model, ...`).
 */
function closed<S extends z.core.$ZodLooseShape>(shape: S) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `allowed: ${allowed.length > 0 ? allowed.join(', ') : 'no fields'}`
        : undefined,
  });
}

/**
 * A string with text (trimmed). Empty or whitespace-only is refused saying so: zod's own message
 * (`expected string to have >=1 characters`) reads wrong for `"   "`, which has three.
 */
function textWithContent(what: string) {
  return z
    .string()
    .trim()
    .min(1, { error: `is empty or only whitespace: ${what} must have text` });
}

const sessionId = z.string().min(1).max(256).describe('The session id (session/open returns it).');
const runId = z.string().min(1).describe('A run id (session/send returns it; events carry it as metadata.run_id).');
const ruleList = z.array(z.string().min(1)).max(500);

/** Params of `initialize`. */
export const initializeParams = closed({
  protocolVersion: z
    .literal(SERVE_PROTOCOL_VERSION)
    .optional()
    .describe('The protocol version the client speaks; this server speaks 1.'),
  clientInfo: closed({ name: z.string().min(1), version: z.string().optional() })
    .optional()
    .describe('Who the client is (for the record; the server does not act on it).'),
});

/** Result of `initialize`. */
export const initializeResult = z.strictObject({
  protocolVersion: z.literal(SERVE_PROTOCOL_VERSION),
  serverInfo: z.strictObject({ name: z.literal('a3s'), version: z.string() }),
  capabilities: z.strictObject({
    methods: z.array(z.string()),
    notifications: z.array(z.string()),
    eventEnvelopeVersion: z.literal(1),
    framing: z.enum(['ndjson', 'content-length']),
    maxMessageBytes: z
      .number()
      .int()
      .min(1)
      .describe(
        'The largest message the server reads, in bytes: a longer one is answered with a parse error (id null).',
      ),
  }),
});

const tierModel = z
  .string({ error: "must be a model: '<provider>/<model>' or 'scripted:<file.json>'" })
  .superRefine((spec, ctx) => {
    const problem = tierModelProblem(spec);
    if (problem !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: problem.includes('allowed')
          ? problem
          : `${problem}; allowed: '<provider>/<model>' or 'scripted:<file.json>'`,
      });
  });

/** The vibe settings of `session/open` (the SDK's `vibe` option, with models as strings). */
const vibeSettings = z.strictObject(
  {
    enabled: z
      .boolean()
      .optional()
      .describe('Vibe mode at the start (default true); the roster is attached either way.'),
    tiers: z
      .strictObject(
        {
          fast: tierModel.optional().describe('The model of fast workers (well-specified mechanical work).'),
          good: tierModel.optional().describe('The model of good workers (design, judgement, review).'),
        },
        {
          error: (iss) =>
            iss.code === 'unrecognized_keys' ? `allowed: the tiers ${VIBE_TIER_NAMES.join(', ')}` : undefined,
        },
      )
      .optional()
      .describe("The model of each tier; a tier without one uses the session's model."),
    maxWorkers: z
      .number()
      .int()
      .min(VIBE_WORKER_BOUNDS.min)
      .max(VIBE_WORKER_BOUNDS.max)
      .optional()
      .describe(`Workers running at once, ${VIBE_WORKER_BOUNDS.min}..${VIBE_WORKER_BOUNDS.max} (default 8).`),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? 'allowed: enabled, tiers, maxWorkers' : undefined) },
);

/** Params of `session/open`. */
export const sessionOpenParams = closed({
  workspace: z.string().min(1).describe('The workspace folder (relative paths resolve against the server folder).'),
  model: z
    .string()
    .min(1)
    .optional()
    .describe("'provider/model' or 'scripted:<file.json>'; default: the workspace config file's, then A3S_MODEL."),
  sessionId: sessionId
    .optional()
    .describe('Continue the fact log of this session id (a parked or interrupted run can then be resumed).'),
  yolo: z.boolean().optional().describe('Run tools that would ask without asking (a deny stays final).'),
  plan: z.boolean().optional().describe('Plan mode: only read tools are visible and callable.'),
  trustWorkspace: z
    .boolean()
    .optional()
    .describe(
      "The person trusts the workspace's config file: needed when it would start MCP servers' commands, run hooks, let tools run unasked, redirect a provider, choose the model (unless params.model is given) or add to what it is told (remembered per folder and file content).",
    ),
  ignoreWorkspaceConfig: z
    .boolean()
    .optional()
    .describe(
      "Leave the workspace's config file out entirely (no trust is asked; not with trustWorkspace): as a3s --ignore-workspace-config.",
    ),
  permissions: closed({ allow: ruleList.optional(), ask: ruleList.optional(), deny: ruleList.optional() })
    .optional()
    .describe("Permission rules added to the CLI's (read-only tools allowed) and the workspace config file's."),
  maxToolRounds: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .optional()
    .describe('Tool rounds per turn, 0..10000: after that many the model is offered no tools and answers in text.'),
  vibe: z
    .union([z.boolean(), vibeSettings], { error: 'must be true, false or { enabled?, tiers?, maxWorkers? }' })
    .optional()
    .describe(
      'Vibe mode (the vibe_* tools, with which the agent conducts background workers): true or false, or { enabled?, tiers?: { fast?, good? }, maxWorkers? }. Default: off.',
    ),
});

/** The folded state of a session's log. */
export const sessionState = z.strictObject({
  phase: z.string().describe('The fold phase: idle, infer, confirm, question, tool, deny, compact or done.'),
  runId: z.string().nullable().describe('The last run in the log.'),
  runStatus: z.string().nullable().describe('running (also parked), completed, cancelled or failed.'),
  activeRunId: z.string().nullable().describe('The run this server is driving now, if any.'),
});

/** Result of `session/open`. */
export const sessionOpenResult = z.strictObject({
  sessionId,
  workspace: z.string(),
  logPath: z.string().nullable(),
  model: z.string().nullable(),
  state: sessionState,
  logRepair: z
    .strictObject({ line: z.number().int(), reason: z.string(), bytesCut: z.number().int() })
    .nullable()
    .describe(
      'A last line a crash left incomplete, cut off when the log was opened (every complete fact kept), or null.',
    ),
});

/** Params of every method that addresses one open session and nothing else. */
export const sessionParams = closed({ sessionId });

const attachmentName = z.string().min(1).optional().describe('Name shown to the model and in the log.');
const mediaType = z
  .string()
  .min(1)
  .optional()
  .describe('The type the client expects (image/png...); the type sniffed from the bytes must agree.');
const workspacePath = z
  .string()
  .min(1)
  .describe("Path inside the session's workspace (relative, or absolute under its root).");

/** One attachment of a prompt: an image by path or as base64 data, or a text file by path. */
export const attachment = z.union([
  closed({ type: z.literal('image'), path: workspacePath, mediaType, name: attachmentName }),
  closed({
    type: z.literal('image'),
    data: z.string().min(1).describe('The image bytes, base64.'),
    mediaType,
    name: attachmentName,
  }),
  closed({ type: z.literal('file'), path: workspacePath, name: attachmentName }),
]);

/** Params of `session/send`. */
export const sessionSendParams = closed({
  sessionId,
  prompt: textWithContent('the prompt (the task for the model)').describe('The prompt of the new run.'),
  attachments: z
    .array(attachment)
    .max(32)
    .optional()
    .describe('Images (png, jpeg, gif, webp) and text files sent with the prompt, kept by hash in .a3s/artifacts.'),
});

/** Result of `session/send` and `session/resume`: the run id, at once (events follow as notifications). */
export const runStarted = z.strictObject({ runId });

/** Result of `session/resume`. */
export const sessionResumeResult = z.strictObject({
  runId,
  kind: z
    .enum(['resume', 'continue'])
    .describe(
      'resume: the open run continues from its log; continue: a new run picks up an interrupted or failed one.',
    ),
});

/** Params of `session/resume`. */
const rebind = z
  .boolean()
  .optional()
  .describe(
    "Resume under the session's current capabilities when they changed since the run started (otherwise that is a CAPABILITY_DRIFT error).",
  );

export const sessionResumeParams = closed({
  sessionId,
  runId: runId.optional().describe('The run to resume; default: the open run of the log.'),
  rebind,
});

/** Params of `session/interrupt`. */
export const sessionInterruptParams = closed({
  sessionId,
  runId: runId.describe('The run to interrupt: an interrupt meant for another run does nothing.'),
  reason: z.string().max(1000).optional(),
});

/** Result of `session/interrupt`. */
export const sessionInterruptResult = z.strictObject({ interrupted: z.boolean() });

/** Params of `session/steer`. */
export const sessionSteerParams = closed({
  sessionId,
  text: textWithContent('a steer message').describe("A message for the active run's next model call."),
  runId: runId.optional().describe('Only steer this run (refused with wrong_run otherwise).'),
  requestId: z.string().min(1).optional().describe('Idempotency key: a repeated id is acknowledged once.'),
  attachments: z
    .array(attachment)
    .max(32)
    .optional()
    .describe(
      'Images (png, jpeg, gif, webp) and text files sent with the steer, checked as for session/send and kept by hash in .a3s/artifacts.',
    ),
});

/** Result of `session/steer`: the SDK's steer receipt. */
export const steerReceipt = z.union([
  z.strictObject({ accepted: z.literal(true), requestId: z.string(), runId: z.string(), duplicate: z.boolean() }),
  z.strictObject({ accepted: z.literal(false), reason: z.string(), message: z.string() }),
]);

/** Params of `confirmation/answer`. */
export const confirmationAnswerParams = closed({
  sessionId,
  toolId: z.string().min(1).describe('The tool_id of the confirmation_required event.'),
  approved: z.boolean(),
  reason: z.string().max(1000).optional(),
  rebind,
});

/** Params of `question/answer`: the answer text, or `skipped: true`. */
export const questionAnswerParams = closed({
  sessionId,
  questionId: z.string().min(1).describe('The question_id of the user_question event.'),
  answer: z.string().optional().describe('The answer text.'),
  skipped: z.literal(true).optional().describe('The user skipped the question.'),
  rebind,
}).refine((p) => (p.answer === undefined) !== (p.skipped === undefined), {
  message: 'give either answer (the text) or skipped: true',
  path: ['answer'],
});

/** Result of `confirmation/answer` and `question/answer`: the resumed run, or null if none resumed. */
export const answerResult = z.strictObject({
  runId: z.string().nullable().describe('The parked run, resumed by the answer (null when a run was already active).'),
});

/** One tool of `session/tools`. */
export const toolInfo = z.strictObject({
  name: z.string(),
  description: z.string(),
  tier: z.enum(['read', 'write', 'exec']),
  capabilities: z.record(z.string(), z.unknown()),
  requires: z.array(z.string()),
});

/** Result of `session/tools`. */
export const sessionToolsResult = z.strictObject({ tools: z.array(toolInfo) });

/** Result of `session/close`. */
export const sessionCloseResult = z.strictObject({ closed: z.boolean() });

/** Params of `session/list`. */
export const sessionListParams = closed({});

/** Result of `session/list`: the sessions open in this server. */
export const sessionListResult = z.strictObject({
  sessions: z.array(
    z.strictObject({
      sessionId,
      workspace: z.string(),
      logPath: z.string().nullable(),
      state: sessionState,
    }),
  ),
});

/** Every method: its params and its result. */
export const METHODS = {
  initialize: { params: initializeParams, result: initializeResult },
  'session/open': { params: sessionOpenParams, result: sessionOpenResult },
  'session/send': { params: sessionSendParams, result: runStarted },
  'session/interrupt': { params: sessionInterruptParams, result: sessionInterruptResult },
  'session/steer': { params: sessionSteerParams, result: steerReceipt },
  'confirmation/answer': { params: confirmationAnswerParams, result: answerResult },
  'question/answer': { params: questionAnswerParams, result: answerResult },
  'session/tools': { params: sessionParams, result: sessionToolsResult },
  'session/close': { params: sessionParams, result: sessionCloseResult },
  'session/list': { params: sessionListParams, result: sessionListResult },
  'session/resume': { params: sessionResumeParams, result: sessionResumeResult },
} as const;

/** A method name. */
export type MethodName = keyof typeof METHODS;

/** The validated params of a method. */
export type ParamsOf<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;

/** The result of a method. */
export type ResultOf<M extends MethodName> = z.input<(typeof METHODS)[M]['result']>;

/** Every notification the server sends: its params. */
export const NOTIFICATIONS = {
  event: eventNotification,
  'run/result': runResultNotification,
  'run/eventsDropped': eventsDroppedNotification,
} as const;

/** The folded state of a session, as the protocol reports it. */
export type SessionStateView = z.input<typeof sessionState>;
