import type { Fact } from './fact.js';
import {
  answerText,
  assistant,
  budgetDeniedNote,
  messageChars,
  pendingQuestionOf,
  runEndedNote,
  syntheticResult,
  userMessageOf,
} from './fold-messages.js';
import type { PayloadOf, ToolCall, ToolSpec, Usage } from './kinds.js';
import { resolveRecipe, type Recipe, type ResolvedRecipe } from './recipe.js';
import type { Counters, FoldState, Message, PendingQuestion, Phase, RunInfo } from './state.js';
import { compactStart, nextCallOf, overThreshold, ZERO, type Round } from './fold-parts.js';
import { contextChars, lazyView } from './fold-view.js';

/**
 * The incremental fold. `apply` takes one fact in O(1) amortised time (a compaction costs
 * O(kept messages)); `state` is a snapshot that later applies never change. Folding is
 * deterministic: the same facts always give the same state, and applying facts one
 * by one gives the same state as `fold` over all of them.
 */
export class Folder {
  #recipe: ResolvedRecipe;
  /** True when no recipe was given: each run's recorded one (`run.started`) is used. */
  readonly #adopts: boolean;

  private phase: Phase = 'idle';
  private msgs: Message[] = [];
  private system: readonly string[] = [];
  private tools: readonly ToolSpec[] = [];
  private round: Round | null = null;
  private question: PendingQuestion | null = null;
  private assistantText = '';
  private usage: Usage = ZERO;
  private lastUsage: Usage = ZERO;
  /** `context_chars` but for the arguments of the calls of `msgs` from {@link argsFrom} on. */
  private contextChars = 0;
  /** Index in `msgs` of the first message whose calls' arguments `contextChars` does not count yet. */
  private argsFrom = 0;
  private run: RunInfo = { run_id: null, status: null };
  /** `turn:cycle` of the last run compaction (one per model cycle); `turn:*` after a skipped one. */
  private compactedAt = '';
  /** Index in `msgs` of the message that opened the current turn (`source: 'user'`), or -1. */
  private request = -1;
  /** Rounds of calls made on requests without tools (past the tool-round cap) since the latest `user.message`. */
  private cappedRounds = 0;
  private c = {
    facts: 0,
    last_seq: 0,
    turn: 0,
    cycle: 0,
    tool_results_ok: 0,
    tool_results_failed: 0,
    tool_rounds: 0,
    questions: 0,
    model_turns: 0,
    ignored: 0,
    unknown: 0,
  };

  /**
   * @param recipe harness settings (validated; `RecipeError` on a bad one). Without one, the fold
   *   uses the defaults until a `run.started` records the settings its run used, and those from then
   *   on, so a log read on its own (a replay) folds as the session that wrote it did.
   */
  constructor(recipe?: Recipe | ResolvedRecipe) {
    this.#recipe = resolveRecipe(recipe);
    this.#adopts = recipe === undefined;
  }

  /** The recipe this fold uses now, with defaults filled in. */
  get recipe(): ResolvedRecipe {
    return this.#recipe;
  }

  /** Number of facts applied so far. */
  get count(): number {
    return this.c.facts;
  }

  /** The current phase (cheaper than `state.phase`). */
  get currentPhase(): Phase {
    return this.phase;
  }

  /** The current turn (cheaper than `state.counters.turn`). */
  get currentTurn(): number {
    return this.c.turn;
  }

  /** Facts that did not fit the state so far (cheaper than `state.counters.ignored`). */
  get ignored(): number {
    return this.c.ignored;
  }

  /** Applies the next fact of the log. Facts must come in seq order; unknown kinds are skipped. */
  apply(fact: Fact): void {
    this.c.facts++;
    this.c.last_seq = fact.seq;
    switch (fact.type) {
      case 'run.started':
        return this.runStarted(fact.payload as PayloadOf['run.started']);
      case 'user.message':
        return this.userMessage(fact, fact.payload as PayloadOf['user.message']);
      case 'model.turn':
        return this.modelTurn(fact, fact.payload as PayloadOf['model.turn']);
      case 'tool.result':
        return this.toolResult(fact, fact.payload as PayloadOf['tool.result']);
      case 'confirmation.answered':
        return this.confirmationAnswered(fact, fact.payload as PayloadOf['confirmation.answered']);
      case 'question.answered':
        return this.questionAnswered(fact, fact.payload as PayloadOf['question.answered']);
      case 'budget.denied':
        return this.budgetDenied(fact, fact.payload as PayloadOf['budget.denied']);
      case 'compaction.done':
        return this.compactionDone(fact, fact.payload as PayloadOf['compaction.done']);
      case 'run.ended':
        return this.runEnded(fact, fact.payload as PayloadOf['run.ended']);
      case 'run.rebound':
        return this.runRebound(fact.payload as PayloadOf['run.rebound']);
      default:
        this.c.unknown++;
    }
  }

  /** A snapshot of the current state. Cheap: the message list is copied only when read. */
  get state(): FoldState {
    const enabled = this.toolsEnabled();
    const nextCall = nextCallOf(this.round, this.phase);
    const view = lazyView({
      system: this.system,
      tools: this.tools,
      enabled,
      pendingConfirmation: this.phase === 'confirm' ? nextCall : null,
      pendingQuestion: this.phase === 'question' ? this.question : null,
      assistantText: this.assistantText,
      usage: this.usage,
      lastUsage: this.lastUsage,
      run: this.run,
      msgs: this.msgs,
      argsFrom: this.argsFrom,
      eagerChars: this.contextChars,
    });
    const counters: Counters = { ...this.c };
    return { phase: this.phase, view, counters, next_call: nextCall };
  }

  /** False once the turn has used `max_tool_rounds` tool rounds: the next request offers no tools. */
  private toolsEnabled(): boolean {
    return this.#recipe.max_tool_rounds === null || this.c.tool_rounds < this.#recipe.max_tool_rounds;
  }

  private push(message: Message): void {
    this.msgs.push(message);
    this.contextChars += messageChars(message);
  }

  /** The context size: counts the calls' arguments not counted yet. */
  private chars(): number {
    this.contextChars = contextChars(this.msgs, this.argsFrom, this.msgs.length, this.contextChars);
    this.argsFrom = this.msgs.length;
    return this.contextChars;
  }

  private resetTurnCounters(): void {
    this.c.tool_results_ok = 0;
    this.c.tool_results_failed = 0;
    this.c.tool_rounds = 0;
    this.cappedRounds = 0;
  }

  /** Closes the open round, writing a synthetic result for each call that never ran. */
  private abandonRound(seq: number, why: (call: ToolCall, first: boolean) => string): void {
    const round = this.round;
    if (!round) return;
    let first = true;
    for (let i = round.next; i < round.calls.length; i++) {
      const call = round.calls[i]!;
      if (round.resolved?.has(call.id)) continue;
      this.push(syntheticResult(call, why(call, first), seq));
      first = false;
    }
    this.round = null;
  }

  private inferOrCompact(): Phase {
    const r = this.#recipe;
    const at = this.compactedAt;
    if (at === `${this.c.turn}:${this.c.cycle}` || at === `${this.c.turn}:*`) return 'infer';
    return overThreshold(r, r.compact_threshold_chars === null ? 0 : this.chars(), this.lastUsage)
      ? 'compact'
      : 'infer';
  }

  /**
   * Moves past resolved calls and decides the phase of the open round. Calls made on a request that
   * offered no tools (past the tool-round cap) are not run; the model is asked once more, told so,
   * and when it asks for tools again the turn ends: asking it again would only spin.
   */
  private settleRound(): void {
    const round = this.round!;
    while (round.next < round.calls.length && round.resolved?.has(round.calls[round.next]!.id)) round.next++;
    if (round.next === round.calls.length) {
      if (round.anyOk) this.c.tool_rounds++;
      if (round.capped) this.cappedRounds++;
      this.round = null;
      this.phase = this.cappedRounds > 1 ? 'done' : this.inferOrCompact();
      return;
    }
    const call = round.calls[round.next]!;
    if (this.c.tool_results_ok >= this.#recipe.tool_budget) this.phase = 'deny';
    else if (call.needs_confirmation && !round.approved?.has(call.id)) this.phase = 'confirm';
    else this.phase = 'tool';
  }

  private runStarted(p: PayloadOf['run.started']): void {
    if (this.#adopts && p.recipe !== undefined) this.#recipe = resolveRecipe(p.recipe);
    if (p.system) this.system = Object.freeze([...p.system]);
    if (p.tools) this.tools = Object.freeze([...p.tools]);
    this.run = { run_id: p.run_id, status: 'running' };
  }

  /** A rebind of the open run replaces the tools offered from now on; any other is ignored. */
  private runRebound(p: PayloadOf['run.rebound']): void {
    if (this.run.run_id !== p.run_id || this.run.status !== 'running') {
      this.c.ignored++;
      return;
    }
    if (p.tools) this.tools = Object.freeze([...p.tools]);
  }

  private userMessage(fact: Fact, p: PayloadOf['user.message']): void {
    this.abandonRound(fact.seq, () => 'Not run: a new message arrived before this call ran.');
    this.question = null;
    if (p.source === 'user' || p.source === 'history') {
      this.c.turn++;
      this.c.cycle = 0;
      this.c.questions = 0;
    }
    this.resetTurnCounters();
    this.push(userMessageOf(p, fact.seq));
    if (p.source === 'user') this.request = this.msgs.length - 1;
    // Restored history is context, not a request: it must not be sent as new work.
    this.phase = p.source === 'history' ? 'idle' : this.inferOrCompact();
  }

  private modelTurn(fact: Fact, p: PayloadOf['model.turn']): void {
    this.abandonRound(fact.seq, () => 'Not run: the model answered again before this call ran.');
    this.question = null;
    const cycle = this.c.cycle;
    this.c.cycle++;
    this.c.model_turns++;
    this.lastUsage = p.usage;
    this.usage = {
      input_tokens: this.usage.input_tokens + p.usage.input_tokens,
      output_tokens: this.usage.output_tokens + p.usage.output_tokens,
    };
    const d = p.decision;
    // Only a non-empty list is carried, so logs without blocks fold exactly as before.
    const reasoning = p.reasoning_blocks && p.reasoning_blocks.length > 0 ? p.reasoning_blocks : null;
    if (d.kind === 'text') {
      this.assistantText = d.text;
      this.push(assistant(d.text, [], fact.seq, reasoning));
      this.phase = 'done';
    } else if (d.kind === 'question') {
      this.assistantText = '';
      this.c.questions++;
      this.question = pendingQuestionOf(d, this.c.turn, cycle);
      this.push(assistant(d.context ? `${d.context}\n\n${d.question}` : d.question, [], fact.seq, reasoning));
      this.phase = 'question';
    } else {
      this.assistantText = d.text ?? '';
      this.push(assistant(d.text ?? '', d.calls, fact.seq, reasoning));
      const messageIndex = this.msgs.length - 1;
      this.round = {
        turn: this.c.turn,
        cycle,
        calls: d.calls,
        next: 0,
        messageIndex,
        resolved: null,
        approved: null,
        anyOk: false,
        capped: !this.toolsEnabled(),
      };
      this.settleRound();
    }
  }

  private toolResult(fact: Fact, p: PayloadOf['tool.result']): void {
    const round = this.round;
    if (
      !round ||
      round.resolved?.has(p.tool_call_id) ||
      !round.calls.some((c, i) => i >= round.next && c.id === p.tool_call_id)
    ) {
      this.c.ignored++;
      return;
    }
    round.resolved ??= new Set();
    round.resolved.add(p.tool_call_id);
    if (p.ok) {
      this.c.tool_results_ok++;
      round.anyOk = true;
    } else {
      this.c.tool_results_failed++;
    }
    this.push({
      role: 'tool',
      tool_call_id: p.tool_call_id,
      name: p.name,
      ok: p.ok,
      output: p.output,
      exit_code: p.exit_code,
      seq: fact.seq,
    });
    this.settleRound();
  }

  private confirmationAnswered(fact: Fact, p: PayloadOf['confirmation.answered']): void {
    const round = this.round;
    const call = this.phase === 'confirm' && round ? round.calls[round.next] : undefined;
    if (!round || !call || call.id !== p.tool_call_id) {
      this.c.ignored++;
      return;
    }
    if (p.approved) {
      round.approved ??= new Set();
      round.approved.add(call.id);
      this.settleRound();
      return;
    }
    const reason = p.reason ? `: ${p.reason}` : '';
    this.abandonRound(fact.seq, (_, first) =>
      first ? `Tool call refused by the user${reason}` : 'Not run: an earlier call in this turn was refused.',
    );
    this.phase = 'done';
  }

  private questionAnswered(fact: Fact, p: PayloadOf['question.answered']): void {
    const q = this.question;
    if (this.phase !== 'question' || !q || q.question_id !== p.question_id) {
      this.c.ignored++;
      return;
    }
    this.question = null;
    this.push({ role: 'user', text: answerText(p), source: 'answer', seq: fact.seq });
    this.phase = this.inferOrCompact();
  }

  private budgetDenied(fact: Fact, p: PayloadOf['budget.denied']): void {
    const round = this.round;
    if (this.phase !== 'deny' || !round || round.calls[round.next]?.id !== p.tool_call_id) {
      this.c.ignored++;
      return;
    }
    const budget = this.#recipe.tool_budget;
    this.abandonRound(fact.seq, (_, first) => budgetDeniedNote(budget, first));
    this.phase = 'done';
  }

  private compactionDone(fact: Fact, p: PayloadOf['compaction.done']): void {
    const msgs = this.msgs;
    const start = compactStart(msgs, p.kept, this.round);
    // The request that opened the turn stays verbatim: the goal in the user's own words.
    const carry = p.keep_request === true && this.request >= 0 && this.request < start ? msgs[this.request]! : null;
    if (this.round) this.round.messageIndex = this.round.messageIndex - start + (carry ? 2 : 1);
    this.request = carry ? 1 : this.request >= 0 ? this.request - start + 1 : -1;
    const kept = msgs.slice(start);
    this.msgs = [];
    this.contextChars = 0;
    this.argsFrom = 0;
    this.push({ role: 'user', text: p.summary, source: 'summary', seq: fact.seq });
    if (carry) this.push(carry);
    for (const m of kept) this.push(m);
    if (this.phase === 'compact') {
      this.compactedAt = `${this.c.turn}:${(p as { skipped?: unknown }).skipped === true ? '*' : this.c.cycle}`;
      this.phase = 'infer';
    }
  }

  private runEnded(fact: Fact, p: PayloadOf['run.ended']): void {
    // A run another one superseded was cut off by a crash or a stop: a call that was due then may
    // have started. One that waited for an answer (approval, a question) had not started.
    const note = runEndedNote(p.status, p.error?.code === 'SUPERSEDED' && this.phase === 'tool');
    this.abandonRound(fact.seq, () => note);
    this.question = null;
    this.run = { run_id: p.run_id ?? this.run.run_id, status: p.status };
    this.phase = 'idle';
  }
}

/** Folds facts into a state in one pass (equivalent to applying each to a new `Folder`). */
export function fold(facts: Iterable<Fact>, recipe?: Recipe | ResolvedRecipe): FoldState {
  const folder = new Folder(recipe);
  for (const fact of facts) folder.apply(fact);
  return folder.state;
}
