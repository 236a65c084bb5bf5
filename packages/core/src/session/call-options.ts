/**
 * The options object of a session call (`send`, `stream`, `resumeRun`, `streamResume`, `steer`),
 * checked before the call takes the session: a value that is not an options object, or a key the
 * call does not know (a typo such as `atachments`, or `signal`, which runs do not take), is a
 * `SessionConfigurationError` naming it and what is allowed — never a `TypeError` from inside,
 * never a silently ignored option, and never a session left busy.
 */
import { SessionConfigurationError } from '../errors/index.js';

/** The keys each session call accepts in its options. */
export const CALL_OPTION_KEYS = {
  send: ['attachments'],
  stream: ['attachments', 'maxPendingEvents', 'maxPendingDeltaChars'],
  resumeRun: ['rebind'],
  streamResume: ['rebind', 'maxPendingEvents', 'maxPendingDeltaChars'],
  steer: ['requestId', 'runId', 'turnRevision', 'deadlineMs', 'attachments'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** A session call whose options are checked. */
export type OptionsCall = keyof typeof CALL_OPTION_KEYS;

/**
 * Returns `options` when it is a plain options object with only the keys `call` accepts (or
 * `undefined`, as `{}`). `rebind`, when given, must be a boolean.
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
        `is not an option of ${call}; allowed: ${allowed.join(', ')}`,
        { allowed },
      );
  }
  const rebind = (options as { readonly rebind?: unknown }).rebind;
  if (rebind !== undefined && typeof rebind !== 'boolean')
    throw new SessionConfigurationError('options.rebind', `must be true or false, got ${describe(rebind)}`);
  return options;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}
