import type { AttachmentRef } from './attachment-ref.js';
import { InvalidTransitionError } from './errors.js';
import type {
  QuestionOption,
  ReasoningBlock,
  RunStatus,
  ToolCall,
  ToolSpec,
  Usage,
  UserMessageSource,
} from './kinds.js';

/** The phases of the fold; the phase is the next transition. */
export const PHASES = ['idle', 'infer', 'compact', 'confirm', 'question', 'tool', 'deny', 'done'] as const;

/** One of {@link PHASES}. `confirm` and `question` are parking phases: they wait for a host fact. */
export type Phase = (typeof PHASES)[number];

/** Checks that `value` names a phase; throws `InvalidTransitionError` listing the phases otherwise. */
export function assertPhase(value: unknown): Phase {
  if (typeof value === 'string' && (PHASES as readonly string[]).includes(value)) return value as Phase;
  throw new InvalidTransitionError(`unknown phase ${JSON.stringify(value)}; phases are ${PHASES.join(', ')}`, {
    value,
    allowed: [...PHASES],
  });
}

/** True for the phases that wait for a host fact. */
export function isParked(phase: Phase): boolean {
  return phase === 'confirm' || phase === 'question';
}

/** A message of the folded conversation, in the order the model sees them. */
export type Message =
  | {
      readonly role: 'user';
      readonly text: string;
      /** `answer` for a question's answer, `summary` for a compaction summary. */
      readonly source: UserMessageSource | 'answer' | 'summary';
      readonly seq: number;
      /**
       * The `user.message`'s attachments, by reference (the host loads their bytes when it sends
       * the message); absent when it had none.
       */
      readonly attachments?: readonly AttachmentRef[];
    }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly tool_calls: readonly ToolCall[];
      readonly seq: number;
      /**
       * The turn's signed reasoning blocks (`model.turn`'s `reasoning_blocks`), to send back with
       * it; absent when the turn had none. Not counted in `context_chars`.
       */
      readonly reasoning?: readonly ReasoningBlock[];
    }
  | {
      readonly role: 'tool';
      readonly tool_call_id: string;
      readonly name: string;
      readonly ok: boolean;
      readonly output: string;
      readonly exit_code: number;
      readonly seq: number;
      /** True when the fold wrote this result for a call that never ran (refused, denied, abandoned). */
      readonly synthetic?: true;
    };

/** A tool call waiting for its next step, with the turn and cycle that produced it. */
export interface PendingCall {
  readonly call: ToolCall;
  readonly turn: number;
  readonly cycle: number;
}

/** A question the model asked, waiting for `question.answered`. */
export interface PendingQuestion {
  readonly question_id: string;
  readonly question: string;
  readonly context: string;
  readonly options: readonly QuestionOption[];
  readonly allow_free_text: boolean;
  readonly multi_select: boolean;
  readonly turn: number;
  readonly cycle: number;
}

/** Counters of the fold. "Since the turn" means since the latest `user.message`. */
export interface Counters {
  /** Facts applied. */
  readonly facts: number;
  /** Seq of the last fact applied (0 when none). */
  readonly last_seq: number;
  /** Current turn (a `user.message` from the user or history opens one; steers do not). */
  readonly turn: number;
  /** Model calls so far in the current turn; the next `infer` key is `infer:<turn>:<cycle>`. */
  readonly cycle: number;
  /** Successful tool results since the latest `user.message` (the budget counter). */
  readonly tool_results_ok: number;
  /** Failed tool results since the latest `user.message` (never counted against budgets). */
  readonly tool_results_failed: number;
  /** Tool rounds with at least one successful result since the latest `user.message`. */
  readonly tool_rounds: number;
  /** Questions asked since the latest user prompt. */
  readonly questions: number;
  /** `model.turn` facts in the whole log. */
  readonly model_turns: number;
  /** Known facts that did not fit the state (e.g. a result for a call nobody asked for). */
  readonly ignored: number;
  /** Facts of kinds this version does not know (skipped by the fold). */
  readonly unknown: number;
}

/** What the fold knows about the current (or last) run. */
export interface RunInfo {
  readonly run_id: string | null;
  /** `running` from `run.started` until `run.ended`. */
  readonly status: 'running' | RunStatus | null;
}

/** The folded view of the log. */
export interface FoldView {
  readonly system: readonly string[];
  /** The tool surface of the current run. */
  readonly tools: readonly ToolSpec[];
  /**
   * False once `max_tool_rounds` is reached: the next request must carry no tools. Calls the model
   * makes on it anyway are not run; it is asked once more, and calls made on that request too end
   * the turn (`done`) once they have their results.
   */
  readonly tools_enabled: boolean;
  /** `tools`, or `[]` when `tools_enabled` is false: exactly what the next model call offers. */
  readonly offered_tools: readonly ToolSpec[];
  /** The conversation (a fresh array on each read). */
  readonly messages: readonly Message[];
  readonly pending_confirmation: PendingCall | null;
  readonly pending_question: PendingQuestion | null;
  /** The assistant text of the latest model turn. */
  readonly assistant_text: string;
  /** Token usage summed over every model turn. */
  readonly usage: Usage;
  /** Usage of the latest model turn. */
  readonly last_usage: Usage;
  /** Characters in the folded conversation (the compaction measure). */
  readonly context_chars: number;
  readonly run: RunInfo;
}

/** The result of folding a log: the view, the phase, and what the phase is about. */
export interface FoldState {
  readonly phase: Phase;
  readonly view: FoldView;
  readonly counters: Counters;
  /** The call that the `tool`, `deny` or `confirm` phase is about; otherwise null. */
  readonly next_call: PendingCall | null;
}
