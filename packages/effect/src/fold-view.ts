// The view of a fold's state (`folder.ts`), with its costly parts made when read.
import { argsChars } from './fold-messages.js';
import type { RunInfo, FoldView, Message, PendingCall, PendingQuestion } from './state.js';
import type { ToolSpec, Usage } from './kinds.js';

/** What a view is made of; `msgs` only grows until the folder replaces it, so a view keeps its length. */
export interface ViewParts {
  readonly system: readonly string[];
  readonly tools: readonly ToolSpec[];
  readonly enabled: boolean;
  readonly pendingConfirmation: PendingCall | null;
  readonly pendingQuestion: PendingQuestion | null;
  readonly assistantText: string;
  readonly usage: Usage;
  readonly lastUsage: Usage;
  readonly run: RunInfo;
  readonly msgs: readonly Message[];
  /** Index in `msgs` of the first message whose calls' arguments `eagerChars` does not count. */
  readonly argsFrom: number;
  /** The context size but for those arguments. */
  readonly eagerChars: number;
}

/** `eager` plus the JSON length of the calls' arguments of `msgs[from..to)`. */
export function contextChars(msgs: readonly Message[], from: number, to: number, eager: number): number {
  let n = eager;
  for (let i = from; i < to; i++) n += argsChars(msgs[i]!);
  return n;
}

/** The view of `p`: the message list is copied, and the context size counted, only when read. */
export function lazyView(p: ViewParts): FoldView {
  const { msgs, argsFrom, eagerChars } = p;
  const len = msgs.length;
  let copy: readonly Message[] | null = null;
  let chars: number | undefined;
  return {
    system: p.system,
    tools: p.tools,
    tools_enabled: p.enabled,
    offered_tools: p.enabled ? p.tools : [],
    get messages(): readonly Message[] {
      copy ??= msgs.slice(0, len);
      return copy;
    },
    pending_confirmation: p.pendingConfirmation,
    pending_question: p.pendingQuestion,
    assistant_text: p.assistantText,
    usage: p.usage,
    last_usage: p.lastUsage,
    get context_chars(): number {
      chars ??= contextChars(msgs, argsFrom, len, eagerChars);
      return chars;
    },
    run: p.run,
  };
}
