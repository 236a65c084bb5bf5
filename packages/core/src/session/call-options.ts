/**
 * The options object of a session call (`send`, `stream`, `resumeRun`, `streamResume`, `steer`,
 * `interrupt`) and the other arguments of session calls,
 * checked before the call takes the session: a value that is not an options object, or a key the
 * call does not know (a typo such as `atachments`), is a
 * `SessionConfigurationError` naming it and what is allowed — never a `TypeError` from inside,
 * never a silently ignored option, and never a session left busy.
 */
import { didYouMean } from '../config/did-you-mean.js';
import { SessionConfigurationError } from '../errors/index.js';
import { checkQuestionAnswer, type QuestionAnswer } from '../run/run-result.js';
import { isAbortSignal } from './run-signal.js';

/** The keys each session call accepts in its options. */
export const CALL_OPTION_KEYS = {
  send: ['attachments', 'signal'],
  stream: ['attachments', 'signal', 'maxPendingEvents', 'maxPendingDeltaChars'],
  resumeRun: ['rebind', 'signal'],
  streamResume: ['rebind', 'signal', 'maxPendingEvents', 'maxPendingDeltaChars'],
  steer: ['requestId', 'runId', 'turnRevision', 'deadlineMs', 'attachments'],
  interrupt: ['runId', 'turnRevision', 'deadlineMs', 'reason'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** The kind of value each option with a scalar value takes. */
const VALUE_KINDS = [
  ['rebind', 'boolean'],
  ['requestId', 'string'],
  ['runId', 'string'],
  ['reason', 'string'],
  ['turnRevision', 'number'],
  ['deadlineMs', 'number'],
] as const;
const KIND_NAMES = { boolean: 'true or false', string: 'a string', number: 'a finite number' } as const;

/** A session call whose options are checked. */
export type OptionsCall = keyof typeof CALL_OPTION_KEYS;

/**
 * Returns `options` when it is a plain options object with only the keys `call` accepts (or
 * `undefined`, as `{}`). `rebind`, when given, must be a boolean; `requestId`, `runId` and
 * `reason` strings; `turnRevision` and `deadlineMs` finite numbers.
 * @throws SessionConfigurationError naming `options` or `options.<key>` and the allowed keys.
 */
export function checkCallOptions<T extends object>(call: OptionsCall, options: T | undefined): T {
  if (options === undefined) return {} as T;
  const allowed: readonly string[] = CALL_OPTION_KEYS[call];
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new SessionConfigurationError(
      'options',
      `${call} takes an options object { ${allowed.join(', ')} } or nothing, got ${describe(options)}`,
      { allowed },
    );
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key))
      throw new SessionConfigurationError(
        `options.${key}`,
        `is not an option of ${call}; allowed: ${allowed.join(', ')}${didYouMean(key, allowed)}`,
        { allowed },
      );
  }
  const o = options as Readonly<Record<string, unknown>>;
  for (const [key, expected] of VALUE_KINDS) {
    const value = o[key];
    if (value === undefined || !allowed.includes(key)) continue;
    const ok = expected === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === expected;
    if (!ok)
      throw new SessionConfigurationError(`options.${key}`, `must be ${KIND_NAMES[expected]}, got ${describe(value)}`);
  }
  if (o.signal !== undefined && !isAbortSignal(o.signal))
    throw new SessionConfigurationError(
      'options.signal',
      `must be an AbortSignal (new AbortController().signal), got ${describe(o.signal)}`,
    );
  return options;
}

/** Whether `options` (of `steer`) asks for the form with attachments, which returns a promise. */
export function hasAttachments(options: unknown): boolean {
  return (
    typeof options === 'object' && options !== null && (options as { attachments?: unknown }).attachments !== undefined
  );
}

/**
 * The options object `value` of `call` (`undefined` as `{}`).
 * @throws SessionConfigurationError naming `field` when it is not a plain object.
 */
export function checkObjectArg<T extends object>(call: string, field: string, value: T | undefined): T {
  if (value === undefined) return {} as T;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SessionConfigurationError(field, `${call} takes an object or nothing, got ${describe(value)}`);
  return value;
}

/**
 * The run id given to `call`: a string, or `undefined` for the open run.
 * @throws SessionConfigurationError (`runId`) for anything else.
 */
export function checkRunIdArg(call: string, runId: unknown): string | undefined {
  if (runId === undefined || typeof runId === 'string') return runId;
  throw new SessionConfigurationError(
    'runId',
    `${call} takes a run id string, or nothing for the open run; got ${describe(runId)}`,
  );
}

/**
 * The id of the parked call or question `call` answers (`toolId`, `questionId`): a string.
 * @throws SessionConfigurationError naming `field` for anything else.
 */
export function checkParkIdArg(call: string, field: string, id: unknown): string {
  if (typeof id === 'string') return id;
  throw new SessionConfigurationError(field, `${call} takes the parked ${field} as a string, got ${describe(id)}`);
}

/**
 * The decision given to `confirmToolUse`: `true` or `false`, never a value read by its truthiness.
 * @throws SessionConfigurationError (`approved`) for anything else, e.g. `'yes'`.
 */
export function checkApprovedArg(approved: unknown): boolean {
  if (typeof approved === 'boolean') return approved;
  throw new SessionConfigurationError(
    'approved',
    `confirmToolUse takes the decision as true (run the call) or false (refuse it), got ${describe(approved)}`,
  );
}

/**
 * The reason given to `confirmToolUse`: a string, or nothing.
 * @throws SessionConfigurationError (`reason`) for anything else.
 */
export function checkReasonArg(reason: unknown): string | undefined {
  if (reason === undefined || typeof reason === 'string') return reason;
  throw new SessionConfigurationError('reason', `confirmToolUse takes the reason as a string, got ${describe(reason)}`);
}

/**
 * The answer given to `answerQuestion`: a string (the text), or exactly one of `{ text }`,
 * `{ skipped: true }` or `{ error }`.
 * @throws SessionConfigurationError (`answer`) for anything else, e.g. `{ skipped: false }`.
 */
export function checkAnswerArg(answer: unknown): QuestionAnswer {
  return checkQuestionAnswer(answer, 'answer', 'must be');
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}
