/**
 * The sessions one `a3s serve` process holds, and their runs. A run is started with the SDK's
 * `session.stream` (or `streamResume`) — the code path of `a3s run --json` — and pumped in the
 * background: each event becomes an `event` notification, then one `run/result` says how it
 * settled. Sessions park instead of waiting (`parkMode: 'return'`): a confirmation or question
 * ends the run's stream as `parked`, the park stays in the fact log with no timeout, and the
 * client's answer (`confirmation/answer`, `question/answer`) is appended as a fact and resumes
 * the run — in this process, or in a new one after a restart. Closing a session never cancels a
 * parked run, because nothing is running.
 */
import { resolve } from 'node:path';
import {
  NO_APPROVER_REASON,
  type ConfirmationManager,
  type EventStream,
  type ProjectedEventV1,
  type QuestionAnswer,
  type Session,
} from '@a3s-code/sdk';
import type { Io } from '../io.js';
import { planResume } from '../interactive/continuation.js';
import { CLI_ALLOW_RULES, openSession, type OpenedSession, warnTo } from '../open-session.js';
import { printMcpWarnings } from '../render/mcp-status.js';
import { styleFor } from '../style.js';
import { Openings } from './opening.js';
import { type PumpedRun, pumpRun } from './run-pump.js';
import type { ParamsOf, ResultOf } from './protocol.js';
import type { ServeOutput } from './output.js';
import { RPC_ERROR, RpcError } from './rpc.js';
import { driftError, folderProblem, openRunOf, refuseUnknownRun, stateOf } from './run-views.js';

/** How long `session/interrupt` waits for the interrupted run to end before it answers anyway. */
export const INTERRUPT_WAIT_MS = 5000;

/** Already settled: the gate of a run whose starting request was answered. */
const ANSWERED: Promise<void> = Promise.resolve();

/** Nested calls (inside `batch`, `program`, ...) cannot park: those that would ask are refused. */
const nestedRefusal: ConfirmationManager = {
  confirm: async () => ({
    approved: false,
    reason: `${NO_APPROVER_REASON}: a3s serve cannot ask about a call nested inside another tool; allow the tool with permissions, or open the session with yolo`,
  }),
};

interface Entry {
  readonly opened: OpenedSession;
  readonly model: string | null;
  /** The pump of the run started last; settles after its `run/result` was sent. */
  pump: Promise<void>;
  /** Settles when the run started last has ended (its stream's result settled). */
  ended: Promise<void>;
  /** What gates the events of the run started last: the answer to the request that started it. */
  written: Promise<void>;
}

/** How a run is pumped: what gates its first event, and the parked run it may supersede. */
type PumpOptions = Pick<PumpedRun, 'written' | 'supersedes'>;

/** The open sessions of a server. */
export class ServeSessions {
  readonly #out: ServeOutput;
  readonly #io: Io;
  readonly #entries = new Map<string, Entry>();
  readonly #openings = new Openings();
  /** Closes answered before they completed (see {@link close}). */
  readonly #closing = new Set<Promise<void>>();

  constructor(out: ServeOutput, io: Io) {
    this.#out = out;
    this.#io = io;
  }

  /** Opens a session (a new one, or the log of `sessionId` continued). */
  async open(p: ParamsOf<'session/open'>): Promise<ResultOf<'session/open'>> {
    this.#openings.check();
    if (p.sessionId !== undefined && this.#entries.has(p.sessionId))
      throw new RpcError(
        RPC_ERROR.invalidParams,
        `Invalid params: params.sessionId: '${p.sessionId}' is already open`,
        {
          field: 'params.sessionId',
        },
      );
    const cwd = resolve(this.#io.cwd, p.workspace);
    const notFolder = folderProblem(cwd);
    if (notFolder)
      throw new RpcError(
        RPC_ERROR.invalidParams,
        `Invalid params: params.workspace: '${cwd}' ${notFolder}; allowed: an existing folder (a relative path resolves against the server's folder, '${this.#io.cwd}')`,
        { field: 'params.workspace' },
      );
    if (p.trustWorkspace === true && p.ignoreWorkspaceConfig === true)
      throw new RpcError(
        RPC_ERROR.invalidParams,
        "Invalid params: params.trustWorkspace and params.ignoreWorkspaceConfig: give one (trust the workspace's config file, or leave it out)",
        { field: 'params.ignoreWorkspaceConfig' },
      );
    const flags = {
      model: p.model,
      cwd,
      startedIn: this.#io.cwd,
      yolo: p.yolo === true,
      plan: p.plan === true,
      trustWorkspace: p.trustWorkspace === true,
      ignoreWorkspaceConfig: p.ignoreWorkspaceConfig === true,
      warn: (line: string) => warnTo(this.#io.stderr, this.#io.env)(`a3s serve: ${line}`),
    };
    const rules = p.permissions ?? {};
    const opening = openSession(flags, this.#io.env, {
      // Signals go through the server's own shutdown (command.ts), which abandons this open.
      hostHandlesSignals: true,
      confirmation: nestedRefusal,
      parkMode: 'return',
      permissions: {
        allow: [...CLI_ALLOW_RULES, ...(rules.allow ?? [])],
        ...(rules.ask ? { ask: rules.ask } : {}),
        ...(rules.deny ? { deny: rules.deny } : {}),
      },
      ...(p.sessionId === undefined ? {} : { sessionId: p.sessionId }),
      ...(p.maxToolRounds === undefined ? {} : { maxToolRounds: p.maxToolRounds }),
      // The roster is always attached (as in a3s code), so vibe mode can be switched later; without
      // `vibe` the workspace config file's setting applies (the SDK merges these over it, tier by tier).
      ...(p.vibe === undefined
        ? {}
        : { vibe: typeof p.vibe === 'boolean' ? { enabled: p.vibe } : { enabled: true, ...p.vibe } }),
    }).catch((e: unknown) => {
      // The SDK's wording names Agent.create: a serve client passes the model in session/open.
      if ((e as { code?: unknown }).code !== 'MODEL_NOT_CONFIGURED') throw e;
      throw new RpcError(
        RPC_ERROR.runtimeError,
        `MODEL_NOT_CONFIGURED: no model for this session: pass params.model ('provider/model', e.g. 'openai/gpt-4o', or 'scripted:<file>'), put "model" in the workspace's a3s.config.json, or start a3s serve with A3S_MODEL set`,
        { code: 'MODEL_NOT_CONFIGURED', field: 'params.model' },
      );
    });
    const opened = await this.#openings.track(opening);
    const { session } = opened;
    printMcpWarnings(this.#io.stderr, styleFor(this.#io.stderr, this.#io.env), session.mcpStatus());
    const llm = session.core.config.model;
    const entry: Entry = {
      opened,
      model: `${llm.provider}/${llm.model}`,
      pump: ANSWERED,
      ended: ANSWERED,
      written: ANSWERED,
    };
    this.#entries.set(session.sessionId, entry);
    return {
      sessionId: session.sessionId,
      workspace: session.dir,
      logPath: session.logPath,
      model: entry.model,
      state: stateOf(session),
      logRepair: session.logRepair,
    };
  }

  /**
   * Starts a run on the prompt; returns its id at once. A parked run the prompt supersedes is
   * announced by its own `run/result` (`cancelled`, `SUPERSEDED`) before the new run's events.
   */
  send(p: ParamsOf<'session/send'>, written: Promise<void> = ANSWERED): Promise<ResultOf<'session/send'>> {
    const entry = this.#entry(p.sessionId);
    const active = entry.opened.session.activeRunId;
    if (active !== null)
      throw new RpcError(
        RPC_ERROR.runtimeError,
        `SESSION_BUSY: session '${p.sessionId}' is running '${active}' (one run at a time): wait for its run/result, or stop it with session/interrupt (session/steer adds to it), then send`,
        { code: 'SESSION_BUSY', runId: active },
      );
    const options = p.attachments === undefined ? {} : { attachments: p.attachments };
    const supersedes = openRunOf(entry.opened.session);
    return this.#start(p.sessionId, entry, () => entry.opened.session.stream(p.prompt, options), {
      written,
      ...(supersedes === undefined ? {} : { supersedes }),
    });
  }

  /** Continues the log: the open run (parked, or left running by a crash), or a new run after an interrupted or failed one. */
  async resume(p: ParamsOf<'session/resume'>, written: Promise<void> = ANSWERED): Promise<ResultOf<'session/resume'>> {
    const entry = this.#entry(p.sessionId);
    const { session } = entry.opened;
    const rebind = { rebind: p.rebind === true };
    if (p.runId !== undefined) {
      if (session.activeRunId === null) refuseUnknownRun(session, p.runId, planResume(session.state, []));
      const started = await this.#start(p.sessionId, entry, () => session.streamResume(p.runId, rebind), {
        written,
      }).catch((e: unknown) => {
        throw driftError(e, false);
      });
      return { ...started, kind: 'resume' };
    }
    const plan = planResume(session.state, []);
    if (plan.kind === 'nothing')
      throw new RpcError(RPC_ERROR.runtimeError, `NOTHING_TO_RESUME: nothing to resume: ${plan.why}`, {
        code: 'NOTHING_TO_RESUME',
      });
    const open =
      plan.kind === 'resume' ? () => session.streamResume(undefined, rebind) : () => session.stream(plan.prompt);
    const started = await this.#start(p.sessionId, entry, open, { written }).catch((e: unknown) => {
      throw driftError(e, false);
    });
    return { ...started, kind: plan.kind };
  }

  /** Answers a parked confirmation (a fact in the log) and resumes the parked run. */
  confirm(
    p: ParamsOf<'confirmation/answer'>,
    written: Promise<void> = ANSWERED,
  ): Promise<ResultOf<'confirmation/answer'>> {
    return this.#answer(p.sessionId, written, p.rebind === true, (s) =>
      s.confirmToolUse(p.toolId, p.approved, p.reason),
    );
  }

  /** Answers a parked question (a fact in the log) and resumes the parked run. */
  answer(p: ParamsOf<'question/answer'>, written: Promise<void> = ANSWERED): Promise<ResultOf<'question/answer'>> {
    const a: QuestionAnswer = p.answer === undefined ? { skipped: true } : { text: p.answer };
    return this.#answer(p.sessionId, written, p.rebind === true, (s) => s.answerQuestion(p.questionId, a));
  }

  /**
   * Interrupts the run `runId` if it is the active one, and answers once it has ended (at most
   * {@link INTERRUPT_WAIT_MS} later), so a `session/send` right after it finds the session free.
   */
  async interrupt(p: ParamsOf<'session/interrupt'>): Promise<ResultOf<'session/interrupt'>> {
    const entry = this.#entry(p.sessionId);
    const interrupted = entry.opened.session.interrupt({
      runId: p.runId,
      reason: p.reason ?? 'interrupted by the client',
    });
    if (interrupted) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((done) => (timer = setTimeout(done, INTERRUPT_WAIT_MS)));
      await Promise.race([entry.ended, late]).finally(() => clearTimeout(timer));
    }
    return { interrupted };
  }

  /** Queues a steer (with its attachments, stored first) for the active run's next model call. */
  async steer(p: ParamsOf<'session/steer'>): Promise<ResultOf<'session/steer'>> {
    const { session } = this.#entry(p.sessionId).opened;
    const target = {
      ...(p.runId === undefined ? {} : { runId: p.runId }),
      ...(p.requestId === undefined ? {} : { requestId: p.requestId }),
    };
    return p.attachments === undefined
      ? session.steer(p.text, target)
      : session.steer(p.text, { ...target, attachments: p.attachments });
  }

  /** The session's tool surface. */
  tools(p: ParamsOf<'session/tools'>): ResultOf<'session/tools'> {
    const { session } = this.#entry(p.sessionId).opened;
    return {
      // The protocol's tool entries carry no input schema (`session/tools` in serve.schema.json).
      tools: session.toolInfo().map(({ inputSchema: _s, ...t }) => ({
        ...t,
        capabilities: { ...t.capabilities },
        requires: [...t.requires],
      })),
    };
  }

  /** The sessions open in this server. */
  list(): ResultOf<'session/list'> {
    return {
      sessions: [...this.#entries].map(([id, e]) => ({
        sessionId: id,
        workspace: e.opened.session.dir,
        logPath: e.opened.session.logPath,
        state: stateOf(e.opened.session),
      })),
    };
  }

  /**
   * Closes a session: an active run is interrupted (its `run/result` is sent first); a parked run
   * stays parked. In the batch that started the run, the run's events and result wait for the
   * batch's answer: the close then completes after it (awaiting it here would never end).
   */
  async close(p: ParamsOf<'session/close'>, written: Promise<void> = ANSWERED): Promise<ResultOf<'session/close'>> {
    const entry = this.#entry(p.sessionId);
    this.#entries.delete(p.sessionId);
    const closing = closeEntry(entry);
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing)).catch(() => undefined);
    if (entry.written !== written) await closing;
    return { closed: true };
  }

  /** Closes every session (stdin ended, or SIGTERM), and waits for the closes under way. */
  async closeAll(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all([...entries.map(closeEntry), ...this.#closing]);
  }

  /** Abandons the opens in flight and refuses new ones (`why`: the signal); see {@link Openings}. */
  abandonOpens(why: string): void {
    this.#openings.abandonAll(why);
  }

  /** How many abandoned opens are still opening (their MCP servers stop only when the process exits). */
  get abandonedInFlight(): number {
    return this.#openings.abandonedInFlight;
  }

  #entry(sessionId: string): Entry {
    const entry = this.#entries.get(sessionId);
    if (!entry)
      throw new RpcError(
        RPC_ERROR.sessionNotOpen,
        `params.sessionId: no session '${sessionId}' is open in this server; open it with session/open`,
        { field: 'params.sessionId' },
      );
    return entry;
  }

  async #answer(
    sessionId: string,
    written: Promise<void>,
    rebind: boolean,
    append: (s: Session) => Promise<void>,
  ): Promise<{ runId: string | null }> {
    const entry = this.#entry(sessionId);
    const { session } = entry.opened;
    if (session.activeRunId !== null) {
      await append(session);
      return { runId: null };
    }
    await append(session);
    return this.#start(sessionId, entry, () => session.streamResume(undefined, { rebind }), { written }).catch(
      (e: unknown) => {
        throw driftError(e, true);
      },
    );
  }

  /**
   * Opens a run's stream, learns its id, and pumps its events in the background: after the
   * previous run's `run/result` and after the response naming the run (`pump.written`).
   */
  async #start(
    sessionId: string,
    entry: Entry,
    open: () => EventStream,
    pump: PumpOptions,
  ): Promise<{ runId: string }> {
    const { session } = entry.opened;
    const stream = open();
    const events = stream[Symbol.asyncIterator]();
    let runId = session.activeRunId;
    let first: ProjectedEventV1 | undefined;
    if (runId === null) {
      // A resume creates its run after loading its checkpoint: its first event names it.
      const step = await events.next().catch(async (e: unknown) => {
        await stream.result.catch(() => undefined);
        throw e;
      });
      if (step.done) {
        await stream.result; // a run that could not start rejects here with its typed error
        throw new RpcError(RPC_ERROR.runtimeError, 'NOTHING_TO_RESUME: the run ended before it took a step', {
          code: 'NOTHING_TO_RESUME',
        });
      }
      first = step.value;
      runId = first.metadata.run_id;
    }
    entry.ended = stream.result.then(
      () => undefined,
      () => undefined,
    );
    entry.written = pump.written;
    const run = { out: this.#out, session, sessionId, runId, stream, events, first, ...pump };
    entry.pump = entry.pump.then(() => pumpRun(run));
    return { runId };
  }
}

/** Interrupts the active run, waits for its `run/result`, then closes the session and its agent. */
async function closeEntry(entry: Entry): Promise<void> {
  if (!entry.opened.session.closed) entry.opened.session.interrupt('the session was closed');
  await entry.pump;
  await entry.opened.close();
}
