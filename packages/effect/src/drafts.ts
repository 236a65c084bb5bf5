import type { AttachmentRef } from './attachment-ref.js';
import { InvalidTransitionError } from './errors.js';
import type { FactDraft } from './fact.js';
import type { ContinuationOrigin, PayloadOf } from './kinds.js';
import type { FoldState, PendingCall } from './state.js';

/** A draft of a known kind, with its payload typed. */
export interface TypedDraft<K extends keyof PayloadOf> extends FactDraft {
  readonly type: K;
  readonly payload: PayloadOf[K];
}

/**
 * Builders of the facts that transitions write, with their conventional keys. Using them keeps
 * keys deterministic, so a transition re-run after a crash re-appends the same keys.
 */
export const drafts = {
  /** The `model.turn` of `infer:<turn>:<cycle>`. */
  modelTurn: (turn: number, cycle: number, payload: PayloadOf['model.turn']): TypedDraft<'model.turn'> => ({
    type: 'model.turn',
    key: `model-turn:${turn}:${cycle}`,
    payload,
  }),
  /** The `tool.result` of a call (from its `tool` transition, or a denied call's from `infer`). */
  toolResult: (
    pending: PendingCall,
    result: Omit<PayloadOf['tool.result'], 'tool_call_id' | 'name'>,
  ): TypedDraft<'tool.result'> => ({
    type: 'tool.result',
    key: `tool-result:${pending.turn}:${pending.cycle}:${pending.call.id}`,
    payload: { tool_call_id: pending.call.id, name: pending.call.name, ...result },
  }),
  /** The `budget.denied` of `budget:<turn>:<cycle>:<call_id>`. */
  budgetDenied: (pending: PendingCall, atMs?: number): TypedDraft<'budget.denied'> => ({
    type: 'budget.denied',
    key: `budget-denied:${pending.turn}:${pending.cycle}:${pending.call.id}`,
    payload: atMs === undefined ? { tool_call_id: pending.call.id } : { tool_call_id: pending.call.id, at_ms: atMs },
  }),
  /** The `run.started` that opens run `runId` (`run:<run_id>`). */
  runStarted: (runId: string, payload: Omit<PayloadOf['run.started'], 'run_id'>): TypedDraft<'run.started'> => ({
    type: 'run.started',
    key: `run:${runId}`,
    payload: { run_id: runId, ...payload },
  }),
  /** The `run.rebound` of run `runId`, the `n`th fact of the log (`rebind:<run_id>:<n>`). */
  runRebound: (
    runId: string,
    n: number,
    payload: Omit<PayloadOf['run.rebound'], 'run_id'>,
  ): TypedDraft<'run.rebound'> => ({
    type: 'run.rebound',
    key: `rebind:${runId}:${n}`,
    payload: { run_id: runId, ...payload },
  }),
  /** The prompt of run `runId` (`user:<run_id>`), with its attachments' references when it has any. */
  prompt: (
    runId: string,
    text: string,
    atMs: number,
    attachments: readonly AttachmentRef[] = [],
  ): TypedDraft<'user.message'> => ({
    type: 'user.message',
    key: `user:${runId}`,
    payload:
      attachments.length === 0
        ? { text, source: 'user', at_ms: atMs }
        : { text, source: 'user', at_ms: atMs, attachments: attachments.map(copyRef) },
  }),
  /** A steer delivered at `infer:<turn>:<cycle>` of run `runId` (a resumed run reuses its id, so the transition is in the key). */
  steer: (
    runId: string,
    turn: number,
    cycle: number,
    requestId: string,
    text: string,
    atMs: number,
    attachments: readonly AttachmentRef[] = [],
  ): TypedDraft<'user.message'> => ({
    type: 'user.message',
    key: `steer:${runId}:${turn}:${cycle}:${requestId}`,
    payload:
      attachments.length === 0
        ? { text, source: 'steer', at_ms: atMs }
        : { text, source: 'steer', at_ms: atMs, attachments: attachments.map(copyRef) },
  }),
  /**
   * A message the host adds to keep a run going (the completion gate's or a stop hook's), at log
   * position `seq`: `continuation:<run_id>:<seq>` or `stop-hook:<run_id>:<seq>`.
   */
  continuation: (
    runId: string,
    seq: number,
    origin: ContinuationOrigin,
    text: string,
    reason: string,
    atMs: number,
  ): TypedDraft<'user.message'> => ({
    type: 'user.message',
    key: `${origin === 'stop_hook' ? 'stop-hook' : 'continuation'}:${runId}:${seq}`,
    payload: { text, source: 'continuation', origin, reason, at_ms: atMs },
  }),
  /** An answer to a parked confirmation; `scope` and `at` make the key unique (`confirm:<scope>:<at>`). */
  confirmationAnswered: (
    scope: string,
    at: string | number,
    payload: PayloadOf['confirmation.answered'],
  ): TypedDraft<'confirmation.answered'> => ({
    type: 'confirmation.answered',
    key: `confirm:${scope}:${at}`,
    payload,
  }),
  /** An answer to a parked question (`answer:<scope>:<at>`). */
  questionAnswered: (
    scope: string,
    at: string | number,
    payload: PayloadOf['question.answered'],
  ): TypedDraft<'question.answered'> => ({
    type: 'question.answered',
    key: `answer:${scope}:${at}`,
    payload,
  }),
  /** The `run.ended` of run `runId` (`end:<run_id>`). */
  runEnded: (runId: string, { status, ...rest }: Omit<PayloadOf['run.ended'], 'run_id'>): TypedDraft<'run.ended'> => ({
    type: 'run.ended',
    key: `end:${runId}`,
    payload: { status, run_id: runId, ...rest },
  }),
  /** The `compaction.done` of `compact:<turn>:<cycle>` (`cycle` omitted: keyed by the turn alone). */
  compaction: (turn: number, payload: PayloadOf['compaction.done'], cycle?: number): TypedDraft<'compaction.done'> => ({
    type: 'compaction.done',
    key: cycle === undefined ? `compaction:${turn}` : `compaction:${turn}:${cycle}`,
    payload,
  }),
} as const;

function copyRef(a: AttachmentRef): AttachmentRef {
  const { sha256, media_type, size, name } = a;
  return name === undefined ? { sha256, media_type, size } : { sha256, media_type, size, name };
}

/**
 * Checks that a host fact fits the current state before it is appended: an answer must answer
 * what is parked now. Throws `InvalidTransitionError` naming the phase and what it expects.
 * (The fold itself never throws: it counts facts that do not fit as `ignored`.)
 */
export function checkHostFact(state: FoldState, draft: FactDraft): void {
  if (draft.type === 'confirmation.answered') {
    const id = (draft.payload as { tool_call_id?: unknown }).tool_call_id;
    const pending = state.view.pending_confirmation;
    if (state.phase !== 'confirm' || !pending) {
      throw new InvalidTransitionError(`no tool call is waiting for confirmation (phase is '${state.phase}')`, {
        phase: state.phase,
        tool_call_id: id,
      });
    }
    if (pending.call.id !== id) {
      throw new InvalidTransitionError(
        `tool call '${String(id)}' is not waiting for confirmation; '${pending.call.id}' is`,
        {
          phase: state.phase,
          tool_call_id: id,
          expected: pending.call.id,
        },
      );
    }
  } else if (draft.type === 'question.answered') {
    const id = (draft.payload as { question_id?: unknown }).question_id;
    const pending = state.view.pending_question;
    if (state.phase !== 'question' || !pending) {
      throw new InvalidTransitionError(`no question is waiting for an answer (phase is '${state.phase}')`, {
        phase: state.phase,
        question_id: id,
      });
    }
    if (pending.question_id !== id) {
      throw new InvalidTransitionError(
        `question '${String(id)}' is not waiting for an answer; '${pending.question_id}' is`,
        {
          phase: state.phase,
          question_id: id,
          expected: pending.question_id,
        },
      );
    }
  }
}
