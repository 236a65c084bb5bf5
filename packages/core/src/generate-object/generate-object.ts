/**
 * `generateObject`: has a model produce a JSON value and returns it only when it validates
 * against the caller's schema (15..22, 26..27). The model is reached only
 * through the {@link LlmClient} given (in a run, the governed LLM invoker, which owns budgets
 * and usage records); this function owns the mode, the validation, the bounded repair loop and
 * the deadline, which starts when the call begins and is never extended by repairs.
 */
import { attachmentContent } from '../attachments/attachment-content.js';
import { prepareAttachments } from '../attachments/prepare-attachments.js';
import type { LlmClient, LlmMessage, LlmResponse, LlmUsage } from '../llm/llm-client.js';
import { emptyWorkspace, type WorkspaceServices } from '../workspace/workspace-services.js';
import { ResponseAccumulator } from '../llm/collect-response.js';
import { LlmError, MALFORMED_TOOL_ARGUMENTS, type LlmErrorKind } from '../llm/llm-error.js';
import { malformedArgsOf } from '../llm/tool-args-text.js';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { formatArgPath } from '../tools/define-tool.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { completeStreamedValue, extractJson } from './extract-json.js';
import { planFor, resolveMode, type ModePlan, type ResolvedMode } from './mode-plan.js';
import {
  getGenerateObjectInput,
  type GenerateObjectInput,
  type GenerateObjectMode,
  type GenerateObjectParams,
} from './params.js';
import { PartialTracker, type PartialListener } from './partial-tracker.js';
import {
  compileSchema,
  formatViolations,
  InvalidSchemaError,
  type SchemaValidator,
  type SchemaViolation,
} from './schema-validator.js';

/** Why generation failed. */
export type GenerateObjectErrorKind =
  | 'validation_failed'
  | 'timeout'
  | 'cancelled'
  | Exclude<LlmErrorKind, 'timeout' | 'cancelled'>;

/** Options of {@link generateObject}. */
export interface GenerateObjectOptions {
  /** Aborts generation (the run's cancellation); the result then has kind `cancelled`. */
  readonly signal?: AbortSignal;
  /** Receives partial values while they stream, at most once per `partialIntervalMs`. */
  readonly onPartial?: PartialListener;
  /** Least time between two partials, ms (default 100). */
  readonly partialIntervalMs?: number;
  /** Clock for the partial interval (default `Date.now`). */
  readonly now?: () => number;
  /** Where `attachments` paths are read (the tool passes its call's workspace); without it they cannot be read. */
  readonly workspace?: WorkspaceServices;
}

/** What every result carries. */
interface ResultBase {
  readonly requestedMode: GenerateObjectMode;
  readonly mode: ResolvedMode;
  /** Model calls made (1 + repairs). */
  readonly attempts: number;
  /** Summed usage of all calls. */
  readonly usage: LlmUsage;
  /** The provider text or tool arguments of the last attempt. */
  readonly rawText: string;
}

/** A validated value, or a typed failure that carries no unvalidated value. */
export type GenerateObjectResult =
  | (ResultBase & { readonly ok: true; readonly object: unknown })
  | (ResultBase & {
      readonly ok: false;
      readonly errorKind: GenerateObjectErrorKind;
      readonly message: string;
      readonly violations: readonly SchemaViolation[];
    });

/** Validates the arguments; throws `INVALID_TOOL_ARGS` naming the field and what is allowed. */
export function parseGenerateObjectInput(input: unknown): GenerateObjectParams {
  const parsed = getGenerateObjectInput().safeParse(input);
  if (!parsed.success) {
    throw new InvalidToolArgsError(
      'generate_object',
      parsed.error.issues.map((i) => ({ field: formatArgPath(i.path), message: i.message })),
    );
  }
  return parsed.data;
}

type Attempt =
  | { readonly kind: 'value'; readonly value: unknown; readonly raw: string }
  | {
      readonly kind: 'invalid';
      readonly raw: string;
      readonly reason: string;
      readonly violations: readonly SchemaViolation[];
      readonly response: LlmResponse | undefined;
      readonly callId: string | undefined;
    };

/**
 * Generates a schema-valid value through `client`. Resolves with a result; throws only for invalid
 * arguments (`INVALID_TOOL_ARGS`, or `ATTACHMENT_INVALID` for an attachment that cannot be sent).
 */
export async function generateObject(
  client: LlmClient,
  input: GenerateObjectInput,
  options: GenerateObjectOptions = {},
): Promise<GenerateObjectResult> {
  const params = parseGenerateObjectInput(input);
  let validator: SchemaValidator;
  try {
    validator = compileSchema(params.schema as JsonSchema);
  } catch (e) {
    if (!(e instanceof InvalidSchemaError)) throw e;
    throw new InvalidToolArgsError('generate_object', [
      { field: 'args.schema', message: `is not a valid JSON Schema: ${e.message}` },
    ]);
  }
  const mode = resolveMode(params.mode, client.capabilities);
  const plan = planFor(mode, params);
  const first = await withAttachments(plan.initialMessages, params.attachments, options);
  const deadlineAt = Date.now() + params.timeout_ms;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, params.timeout_ms);
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  let attempts = 0;
  let raw = '';
  let fellBack = false;
  const messages: LlmMessage[] = [...first];
  const base = () => ({ requestedMode: params.mode, mode, attempts, usage, rawText: raw });
  const fail = (
    errorKind: GenerateObjectErrorKind,
    message: string,
    violations: readonly SchemaViolation[] = [],
  ): GenerateObjectResult => ({
    ...base(),
    ok: false,
    errorKind,
    message,
    violations,
  });
  try {
    for (;;) {
      attempts++;
      const tracker = new PartialTracker(
        plan.tool?.name,
        plan.shape.wrapped,
        options.onPartial,
        options.partialIntervalMs ?? 100,
        options.now ?? Date.now,
      );
      let attempt: Attempt;
      try {
        const remaining = Math.max(1, deadlineAt - Date.now());
        const response = await streamOnce(
          client,
          plan,
          messages,
          controller.signal,
          remaining,
          tracker,
          (u) => (usage = addUsage(usage, u)),
        );
        raw = tracker.raw;
        attempt = judge(plan, response, raw, validator);
      } catch (e) {
        if (controller.signal.aborted) {
          return timedOut
            ? fail('timeout', `generate_object: no valid value within timeout_ms=${params.timeout_ms}`)
            : fail('cancelled', 'generate_object was cancelled');
        }
        if (!LlmError.isLlmError(e)) throw e;
        const streamed = tracker.raw;
        if (e.providerCode === MALFORMED_TOOL_ARGUMENTS && plan.mode === 'tool') {
          raw = streamed;
          attempt = {
            kind: 'invalid',
            raw: streamed,
            reason: `the tool arguments were not valid JSON`,
            violations: [],
            response: undefined,
            callId: undefined,
          };
        } else if (
          e.kind === 'transport' &&
          plan.mode !== 'tool' &&
          completeStreamedValue(streamed, params.schema as JsonSchema).complete
        ) {
          // The endpoint cut the stream after a complete, valid value.
          raw = streamed;
          attempt = judge(plan, undefined, streamed, validator);
        } else if (
          (e.kind === 'transport' || e.kind === 'timeout') &&
          !fellBack &&
          client.capabilities.nonStreaming &&
          client.complete !== undefined
        ) {
          // A genuinely distinct non-streaming transport may succeed where the stream broke;
          // a rate limit or a status error would fail the same way, so those are not re-run.
          fellBack = true;
          try {
            const remaining = Math.max(1, deadlineAt - Date.now());
            const response = await client.complete(plan.request(messages, controller.signal, remaining));
            usage = addUsage(usage, response.usage);
            raw = rawOf(plan, response);
            attempt = judge(plan, response, raw, validator);
          } catch (e2) {
            if (controller.signal.aborted)
              return timedOut
                ? fail('timeout', `generate_object: no valid value within timeout_ms=${params.timeout_ms}`)
                : fail('cancelled', 'generate_object was cancelled');
            if (!LlmError.isLlmError(e2)) throw e2;
            return llmFailure(e2);
          }
        } else {
          return llmFailure(e);
        }
      }
      if (attempt.kind === 'value') return { ...base(), ok: true, object: attempt.value };
      if (attempts > params.max_repair_attempts) {
        const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
        return fail(
          'validation_failed',
          `generate_object: no schema-valid value after ${tries}: ${attempt.reason}`,
          attempt.violations,
        );
      }
      if (Date.now() >= deadlineAt)
        return fail(
          'timeout',
          `generate_object: no valid value within timeout_ms=${params.timeout_ms}`,
          attempt.violations,
        );
      messages.push(...repairMessages(plan, attempt));
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  function llmFailure(e: LlmError): GenerateObjectResult {
    const kind: GenerateObjectErrorKind = e.kind === 'cancelled' ? 'cancelled' : e.kind;
    return fail(kind, `generate_object: model call failed (${e.kind}): ${e.message}`);
  }
}

/** The first message with the call's attachments (images as parts, text files inlined), read through the workspace. */
async function withAttachments(
  initial: readonly LlmMessage[],
  attachments: GenerateObjectParams['attachments'],
  options: GenerateObjectOptions,
): Promise<readonly LlmMessage[]> {
  const [head, ...rest] = initial;
  if (attachments === undefined || attachments.length === 0 || head?.role !== 'user') return initial;
  const prepared = await prepareAttachments(attachments, {
    workspace: options.workspace ?? emptyWorkspace(),
    field: 'args.attachments',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const bytes = new Map(prepared.map((a) => [a.ref.sha256, a.bytes]));
  const { content, images } = attachmentContent(
    head.content,
    prepared.map((a) => a.ref),
    bytes,
  );
  return [images.length > 0 ? { role: 'user', content, images } : { role: 'user', content }, ...rest];
}

async function streamOnce(
  client: LlmClient,
  plan: ModePlan,
  messages: readonly LlmMessage[],
  signal: AbortSignal,
  timeoutMs: number,
  tracker: PartialTracker,
  onUsage: (u: LlmUsage) => void,
): Promise<LlmResponse> {
  const acc = new ResponseAccumulator(client.provider);
  let usage: LlmUsage | undefined;
  try {
    for await (const ev of client.stream(plan.request(messages, signal, timeoutMs))) {
      tracker.add(ev);
      acc.add(ev);
      if (ev.type === 'usage') usage = ev.usage;
    }
  } finally {
    if (usage) onUsage(usage);
  }
  return acc.result();
}

function rawOf(plan: ModePlan, response: LlmResponse): string {
  if (plan.tool === undefined) return response.text;
  const call = response.toolCalls.find((c) => c.name === plan.tool?.name);
  return call === undefined ? response.text : JSON.stringify(call.args);
}

/** Turns a response (or streamed text) into a validated value or the reason it is not one. */
function judge(plan: ModePlan, response: LlmResponse | undefined, raw: string, validator: SchemaValidator): Attempt {
  let candidate: unknown;
  let callId: string | undefined;
  if (plan.tool !== undefined) {
    const call = response?.toolCalls.find((c) => c.name === plan.tool?.name);
    if (call === undefined) {
      return {
        kind: 'invalid',
        raw: response?.text ?? raw,
        reason: `the model did not call the tool '${plan.tool.name}'`,
        violations: [],
        response,
        callId: undefined,
      };
    }
    callId = call.id;
    const malformed = malformedArgsOf(call.args);
    if (malformed !== undefined)
      return {
        kind: 'invalid',
        raw: malformed.text,
        reason: `the tool arguments were not valid JSON (${malformed.problem})`,
        violations: [],
        response,
        callId,
      };
    raw = JSON.stringify(call.args);
    candidate = plan.shape.wrapped ? call.args.value : call.args;
    if (plan.shape.wrapped && !('value' in call.args)) {
      return {
        kind: 'invalid',
        raw,
        reason: "the tool arguments have no 'value'",
        violations: [{ path: '', message: "must have required property 'value'" }],
        response,
        callId,
      };
    }
  } else {
    const text = response?.text ?? raw;
    const extracted = extractJson(text);
    if (!extracted.ok)
      return { kind: 'invalid', raw: text, reason: extracted.reason, violations: [], response, callId: undefined };
    candidate = extracted.value;
  }
  const violations = validator.validate(candidate);
  if (violations.length === 0) return { kind: 'value', value: candidate, raw };
  return {
    kind: 'invalid',
    raw,
    reason: `the value does not match the schema:\n${formatViolations(violations)}`,
    violations,
    response,
    callId,
  };
}

/** The messages that show the model its invalid answer and the validation errors. */
function repairMessages(plan: ModePlan, attempt: Extract<Attempt, { kind: 'invalid' }>): LlmMessage[] {
  const fix = `Your previous output was rejected: ${attempt.reason}`;
  if (plan.tool !== undefined) {
    const name = plan.tool.name;
    const call = attempt.response?.toolCalls.find((c) => c.id === attempt.callId);
    if (call !== undefined) {
      return [
        { role: 'assistant', content: attempt.response?.text ?? '', toolCalls: [call] },
        {
          role: 'tool',
          toolCallId: call.id,
          name,
          content: `${fix}\nCall '${name}' again with corrected arguments.`,
          isError: true,
        },
      ];
    }
    const said = attempt.response?.text ?? '';
    return [
      ...(said === '' ? [] : [{ role: 'assistant' as const, content: said }]),
      { role: 'user', content: `${fix}\nCall the tool '${name}' with arguments that satisfy its schema.` },
    ];
  }
  return [
    { role: 'assistant', content: attempt.raw },
    { role: 'user', content: `${fix}\nRespond again with only the corrected JSON value.` },
  ];
}

function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}
