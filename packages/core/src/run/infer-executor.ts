/**
 * The `infer` transition: one provider call through the LLM invoker. Pending steers are drained
 * into `user.message` facts sent in this same request; the response becomes the
 * `model.turn` decision after the permission projection: denied calls are recorded as
 * failed results in the same transition, asked calls carry `needs_confirmation`. An `ask_user`
 * call becomes a `question` only as the one call of its turn; with other calls it is one of those
 * failed results. Tools the session withdrew since the run's generation are left out of the
 * request, and a `run.rebound` recorded in the same transition says so.
 */
import {
  A3sError,
  drafts,
  type Decision,
  type FactDraft,
  type FoldState,
  type Message,
  type ToolCall,
  type ToolSpec,
} from '@a3s-code/effect';
import type { LlmResponse, LlmToolCall } from '../llm/llm-client.js';
import { CancelledError } from '../errors/tool-errors.js';
import { loadAttachmentBytes } from '../attachments/attachment-content.js';
import { ResponseAccumulator } from '../llm/collect-response.js';
import { ASK_USER_TOOL, askNotAloneMessage, askUserInput, NO_ASK_PORT_MESSAGE } from './ask-user.js';
import { uniqueCallIds } from './call-ids.js';
import { toLlmMessages, toReasoningRecord } from './conversation.js';
import { withoutWithdrawn } from './withdrawn-tools.js';
import type { RunEnv } from './run-env.js';
import { enterTurn } from '../invoker/live-governance.js';

/** The run asked more questions than its cap allows. */
export class QuestionCapError extends A3sError {
  constructor(cap: number) {
    super('QUESTION_CAP_EXCEEDED', 'ask_user question cap exceeded', { details: { cap } });
  }
}

/**
 * Runs `infer:<turn>:<cycle>` and returns the facts it records. `maxToolRounds` is the recipe's
 * tool-round cap (`null`: none): steers applied in this call are new user messages, which start
 * the tool-round count again, so this request already offers the tools when the cap allows any.
 */
export async function runInfer(
  env: RunEnv,
  turn: number,
  cycle: number,
  state: FoldState,
  maxToolRounds: number | null,
): Promise<FactDraft[]> {
  const steers = env.drainSteers();
  // A resumed run reuses its id with a new inbox, so the transition is part of the key.
  const steerDrafts: FactDraft[] = steers.map((s) =>
    drafts.steer(env.runId, turn, cycle, s.requestId, s.text, env.clock(), s.attachments),
  );
  const steerMessages: Message[] = steers.map((s) =>
    s.attachments === undefined
      ? { role: 'user', text: s.text, source: 'steer', seq: 0 }
      : { role: 'user', text: s.text, source: 'steer', seq: 0, attachments: s.attachments },
  );
  const view = state.view;
  // What the log says once the steers are folded: a new user message resets the round count.
  const toolsEnabled = steers.length > 0 ? maxToolRounds !== 0 : view.tools_enabled;
  // Tools the session withdrew since the run's generation are no longer offered (and the log says so).
  const offered = withoutWithdrawn(env, view.tools);
  // The attachments' bytes, read back from the artifact store by the hashes the log recorded.
  const attachments = await loadAttachmentBytes(env.attachments, [...view.messages, ...steerMessages]);
  const request = {
    system: [...view.system],
    messages: [...toLlmMessages(view.messages, attachments), ...toLlmMessages(steerMessages, attachments)],
    tools: toolsEnabled ? specsOf(offered.tools) : [],
    signal: env.signal,
  };
  env.stats.modelCalls++;
  const turnNo = env.stats.modelCalls;
  enterTurn(env.invocation, turnNo);
  env.events.emit({ kind: 'turnStart', payload: { turn: turnNo } });
  const acc = new ResponseAccumulator(env.llm.provider);
  let finished = false;
  for await (const ev of env.llm.stream(request)) {
    acc.add(ev);
    if (ev.type === 'finish') finished = true;
    if (ev.type === 'text_delta') env.events.emit({ kind: 'textDelta', payload: { delta: ev.delta } });
    else if (ev.type === 'reasoning_delta') env.events.emit({ kind: 'reasoningDelta', payload: { delta: ev.delta } });
  }
  // A stream a cancel cut short (a client that stopped without failing) is no decision; a whole
  // response is recorded, and the run then ends cancelled at its next step.
  if (env.signal.aborted && !finished) throw new CancelledError('model call', env.signal.reason);
  const response = acc.result();
  const usage = { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens };
  env.stats.inputTokens += usage.input_tokens;
  env.stats.outputTokens += usage.output_tokens;
  env.events.emit({ kind: 'turnEnd', payload: { turn: turnNo, usage } });

  const calls = uniqueCallIds(response.toolCalls, turn, cycle);
  const { decision, denied } = await decide(env, { ...response, toolCalls: calls }, state, toolsEnabled);
  const at = env.clock();
  const turnDraft = drafts.modelTurn(turn, cycle, {
    decision,
    usage,
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    // Signed blocks are logged so later turns send them back exactly as received.
    ...(response.reasoningBlocks && response.reasoningBlocks.length > 0
      ? { reasoning_blocks: response.reasoningBlocks.map(toReasoningRecord) }
      : {}),
    // An answer the provider stopped at its output limit may end mid-sentence: the run says so.
    ...(response.finishReason === 'length' && decision.kind === 'text' ? { cut_off: true } : {}),
    at_ms: at,
  });
  const results = denied.map(({ call, output, metadata }) =>
    drafts.toolResult({ call, turn, cycle }, { ok: false, output, exit_code: 1, metadata, at_ms: at }),
  );
  return [...(offered.draft ? [offered.draft] : []), ...steerDrafts, turnDraft, ...results];
}

/** Tool specs as a request carries them. */
function specsOf(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
}

interface Denied {
  readonly call: ToolCall;
  readonly output: string;
  readonly metadata: Record<string, unknown>;
}

async function decide(
  env: RunEnv,
  response: LlmResponse,
  state: FoldState,
  toolsEnabled: boolean,
): Promise<{ decision: Decision; denied: Denied[] }> {
  const calls = response.toolCalls;
  if (calls.length === 0) return { decision: { kind: 'text', text: response.text }, denied: [] };
  const askPort = env.invoker.has(ASK_USER_TOOL);
  // A question parks the run, so it is asked only when it is the turn's one call; asked with
  // other calls it is refused (below) and those calls are handled as usual.
  const question = calls.length === 1 && calls[0]!.name === ASK_USER_TOOL ? calls[0]! : undefined;
  if (question && toolsEnabled && askPort) {
    const parsed = askUserInput().safeParse(question.args);
    if (parsed.success) {
      if (state.counters.questions >= env.questionCap) throw new QuestionCapError(env.questionCap);
      const q = parsed.data;
      // What the model wrote with the call is kept: it leads the question's context.
      const context = joinText(response.text, q.context);
      return {
        decision: {
          kind: 'question',
          question_id: question.id,
          question: q.question,
          ...(context === undefined ? {} : { context }),
          options: q.options.map((o) =>
            o.description === undefined ? { label: o.label } : { label: o.label, description: o.description },
          ),
          allow_free_text: q.allow_free_text,
          multi_select: q.multi_select,
        },
        denied: [],
      };
    }
  }
  const projected: ToolCall[] = [];
  const denied: Denied[] = [];
  for (const c of calls) {
    const call = { id: c.id, name: c.name, args: asArgs(c), needs_confirmation: false };
    if (!toolsEnabled) {
      projected.push(call);
      denied.push({
        call,
        output: 'Not run: the tool-round cap (max_tool_rounds) is reached; answer in text.',
        metadata: { error_kind: 'tool_rounds_exhausted' },
      });
      continue;
    }
    if (c.name === ASK_USER_TOOL && !askPort) {
      // Nobody can answer: fail at once rather than park for ever.
      projected.push(call);
      denied.push({ call, output: NO_ASK_PORT_MESSAGE, metadata: { error_kind: 'no_ask_port' } });
      continue;
    }
    if (c.name === ASK_USER_TOOL && calls.length > 1) {
      projected.push(call);
      denied.push({
        call,
        output: askNotAloneMessage(calls.filter((o) => o !== c).map((o) => o.name)),
        metadata: { error_kind: 'ask_user_not_alone' },
      });
      continue;
    }
    const verdict = await env.invoker.project({ id: c.id, name: c.name, args: c.args }, env.invocation);
    if (verdict.decision === 'ask') {
      projected.push({ ...call, needs_confirmation: true, confirmation_rule: verdict.rule } as ToolCall);
    } else if (verdict.decision === 'deny') {
      projected.push(call);
      // The kernel records the denial itself: tool_start, permission_denied, tool_end.
      const r = await env.invoker.invoke({ id: c.id, name: c.name, args: c.args }, env.invocation, 'agent');
      if (r.errorKind === 'permission_denied') env.stats.deniedCalls++;
      denied.push({
        call,
        output: r.output,
        metadata: { ...r.metadata, error_kind: r.errorKind ?? 'permission_denied' },
      });
    } else {
      projected.push(call);
    }
  }
  return { decision: { kind: 'tool', ...(response.text ? { text: response.text } : {}), calls: projected }, denied };
}

/** The turn's text and the question's own context, as the question's context (`undefined`: neither). */
function joinText(text: string, context: string | undefined): string | undefined {
  const said = text.trim() === '' ? undefined : text;
  if (said === undefined) return context;
  return context === undefined || context.trim() === '' ? said : `${said}\n\n${context}`;
}

function asArgs(call: LlmToolCall): Record<string, unknown> {
  return { ...call.args };
}
