/**
 * `ask_user`: the model's way to ask the person a question. The run driver never executes it:
 * a model call of `ask_user` that is the one call of its turn becomes a `question` decision, so
 * the run parks in `question` and the answer arrives as a `question.answered` fact. Made with
 * other calls, it is refused with a failed result (those calls are handled as usual). Called any
 * other way (nested in `batch`, by the host) it fails, since no run is there to park.
 *
 * It is registered only when someone can answer: a question handler, or a host that takes
 * parked questions (`parkMode: 'return'`). Without one, a model call of it fails at once with
 * {@link NO_ASK_PORT_MESSAGE} instead of waiting forever.
 */
import { defineTool } from '../tools/define-tool.js';
import { lazyZod } from '../tools/zod-loader.js';
import type { ParkMode, QuestionAnswer, QuestionHandler } from './run-result.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** The name the model calls. */
export const ASK_USER_TOOL = 'ask_user';

/** The zod schema of the arguments of `ask_user`, built (and zod loaded) on the first call. */
export const askUserInput = lazyZod((z) =>
  z.strictObject({
    question: z.string().min(1).max(4000).describe('The question, in one or two sentences.'),
    context: z.string().max(8000).optional().describe('Why you ask: what you found and what depends on the answer.'),
    options: z
      .array(z.strictObject({ label: z.string().min(1).max(200), description: z.string().max(1000).optional() }))
      .max(16)
      .default([])
      .describe('Suggested answers; may be empty.'),
    allow_free_text: z.boolean().default(true).describe('Whether the person may answer in their own words.'),
    multi_select: z.boolean().default(false).describe('Whether several options may be chosen.'),
  }),
);

/** The guidance the model sees with `ask_user`. */
export const ASK_USER_GUIDANCE = [
  'Ask the person a question and wait for the answer (shown as a card with numbered options).',
  'Use it only when you cannot proceed without a decision or a fact that only they have; prefer looking things up yourself.',
  'This tool is the only way to ask: never ask a question as a plain chat message, because a message ends your turn and nobody answers it.',
  'Call it on its own: in a turn that also calls other tools it is not asked.',
  'If the person skips the question or it times out, carry on under an explicitly stated assumption and do not ask again.',
].join(' ');

/** The failure a model call of `ask_user` gets when nobody can answer. */
export const NO_ASK_PORT_MESSAGE =
  'ask_user is not available: no person is attached to this session to answer questions. Do not ask in a plain message either; carry on under an explicitly stated assumption (say what you assume).';

/**
 * The failure an `ask_user` call gets when its turn also made `others` (the names of the other
 * calls): a question parks the run, so it is asked only as the one call of its turn.
 */
export function askNotAloneMessage(others: readonly string[]): string {
  const names = [...new Set(others)].join(', ');
  const n = others.length;
  return `Not asked: ask_user must be the only call of its turn, and this turn made ${n} other call${n === 1 ? '' : 's'} (${names}). Those were handled as usual (see their results). If you still need the answer, call ask_user again on its own.`;
}

/** The `ask_user` tool definition (its schema is what the model sees). */
export const askUserTool = defineTool({
  name: ASK_USER_TOOL,
  description: ASK_USER_GUIDANCE,
  tier: 'read',
  inputJsonSchema: toolJsonSchemas.ask_user,
  plainInput: true,
  input: () => askUserInput(),
  capabilities: { readOnly: true, idempotent: false },
  // Registered only when the session has an ask port, which it attaches as this resource.
  requires: ['resource.ask'],
  execute: async () => ({
    output:
      'ask_user can only be used by the model directly in a run (the run parks until the person answers); it cannot be nested or called by the host.',
    exitCode: 1,
  }),
});

/**
 * Whether a session with these settings has an ask port, so that `ask_user` is registered: a
 * live question handler, or a host that takes parked questions (`parkMode: 'return'`).
 */
export function hasAskPort(config: {
  readonly onQuestion?: QuestionHandler | undefined;
  readonly parkMode?: ParkMode | undefined;
}): boolean {
  return config.onQuestion !== undefined || config.parkMode === 'return';
}

/**
 * A question handler that gives `handler` at most `timeoutMs` milliseconds: past that its signal
 * aborts and the answer is an `error` saying the question timed out. The timer is the host's
 * question policy, never part of the fact log.
 */
export function withQuestionTimeout(handler: QuestionHandler, timeoutMs: number): QuestionHandler {
  return (question, signal) =>
    new Promise<QuestionAnswer>((resolve, reject) => {
      const inner = new AbortController();
      const onAbort = (): void => inner.abort(signal.reason);
      if (signal.aborted) inner.abort(signal.reason);
      else signal.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        settle();
        inner.abort(new Error('question timed out'));
        resolve({ error: `no answer: the question timed out after ${timeoutMs} ms` });
      }, timeoutMs);
      handler(question, inner.signal).then(
        (answer) => {
          settle();
          resolve(answer);
        },
        (e: unknown) => {
          settle();
          reject(e);
        },
      );
    });
}
