/**
 * The SDK `Session` (ARCHITECTURE §7): a thin host-facing face over core's `AgentSession`. Runs,
 * controls and the completion gate are core's; the typed host-direct helpers are one
 * `session.tool(...)` call each (no second execution path). It holds no policy.
 */
import type {
  ActiveToolCall,
  AgentSession,
  InterruptOptions,
  MutationLedger,
  PreparationStep,
  PrepareOptions,
  ResumeRunOptions,
  SessionCapabilityCatalog,
  ProjectedEventV1,
  QuestionAnswer,
  RunResult,
  HostToolOptions,
  SendOptions,
  StreamOptions,
  StreamResumeOptions,
  SessionSnapshotV1,
  AttachedSteerOptions,
  SteerOptions,
  SteerReceipt,
  ToolDefinition,
  VerificationCommand,
  VerificationReport,
  VerifyOptions,
} from '@a3s-code/core';
import type { FoldState } from '@a3s-code/effect';
import type { TaskOptions, TaskResult, TaskSpec, TasksOptions, TasksResult } from '@a3s-code/core';
import {
  mcpServerSteps,
  type McpServerStepOptions,
  type McpServerStatus,
  type McpSessionServerStatus,
} from '@a3s-code/mcp';
import type { GitOperation } from '@a3s-code/tools-workspace';
import { SessionClosedError } from '@a3s-code/core';
import { checkOptionsArg, isOptionsObject } from './arguments.js';
import * as direct from './direct-tools.js';
import { logPathOf, logRepairOf, type LogRepair } from './log-info.js';
import * as memory from './memory.js';
import type { SessionMcp } from './mcp.js';
import type { VibeModeSwitch } from '@a3s-code/tools-resource/vibe';
import { programArgs, type ProgramOptions } from './program.js';
import { switchVibe } from './vibe-switch.js';
import { resourceInfos, type ResourceInfo } from './resource-info.js';
import { toolInfos, type ToolInfo } from './tool-info.js';
import { toToolResult, type ToolResult } from './tool-result.js';

/** What `session.stream(prompt)` and `session.streamResume()` return: the projected events (iterable once), then `.result`. */
export type EventStream = AsyncIterable<ProjectedEventV1> & { readonly result: Promise<RunResult> };

/** A coding-agent session on a workspace folder. Build it with `agent.session(dir, options)`. */
export class Session {
  /** The core session underneath, for what the SDK does not wrap (its fact store, its folded state). */
  readonly core: AgentSession;
  /** The workspace folder (absolute). */
  readonly dir: string;
  readonly #mcp: SessionMcp;
  readonly #call: direct.HostCall;
  readonly #vibe: VibeModeSwitch | undefined;

  /** @internal Built by `Agent.session` / `Agent.resumeSession`. */
  constructor(core: AgentSession, dir: string, mcp: SessionMcp, vibe?: VibeModeSwitch) {
    this.core = core;
    this.dir = dir;
    this.#mcp = mcp;
    this.#vibe = vibe;
    this.#call = (name, args) => core.tool(name, args);
  }

  /** The session id (reuse it to continue the same log). */
  get sessionId(): string {
    return this.core.sessionId;
  }

  /** Absolute path of the fact log (`<dir>/.a3s/effect-log/<thread>.jsonl`), or `null` with `persistence: 'memory'`. */
  get logPath(): string | null {
    return logPathOf(this.core);
  }

  /** What opening the log repaired, or `null`: a last line a crash left incomplete, cut off (no complete fact is lost). */
  get logRepair(): LogRepair | null {
    return logRepairOf(this.core);
  }

  /** The folded state of the log now (phase, view, counters): deeply frozen, so changing it changes nothing. */
  get state(): FoldState {
    return this.core.state;
  }

  /** Whether `close()` was called: every call that would change something then fails with `SESSION_CLOSED`. */
  get closed(): boolean {
    return this.core.closed;
  }

  /** The id of the run in progress, or `null`. */
  get activeRunId(): string | null {
    return this.core.activeRunId;
  }

  // ── Runs ────────────────────────────────────────────────────────────────────────────────
  /**
   * Runs a prompt to completion, park or cancellation. Failures throw typed errors
   * (`COMPLETION_INCOMPLETE`, `SESSION_BUSY`, ...). `options.attachments` sends images (a
   * workspace `path` or `data`) and text files (a workspace `path`) with it; one that cannot be
   * sent fails with `ATTACHMENT_INVALID` before anything is written.
   */
  send(prompt: string, options?: SendOptions): Promise<RunResult> {
    return this.core.send(prompt, options);
  }

  /**
   * Runs a prompt and yields its event envelopes with `text`/`toolName`/`tool_name`; `.result` settles
   * with the run. `options.attachments` as for {@link send}. For a slow consumer, deltas past
   * `options.maxPendingEvents` are merged (nothing lost) and past `options.maxPendingDeltaChars`
   * dropped and counted in one `events_dropped` event; other events always arrive, in order.
   */
  stream(prompt: string, options?: StreamOptions): EventStream {
    return this.core.stream(prompt, options);
  }

  /**
   * Continues the log from its folded phase (after answering a park, or after a crash). A run whose
   * capabilities (tools, MCP servers, skills, permission ceiling, ...) changed since it started is
   * refused with `CAPABILITY_DRIFT` naming what changed (`{ rebind: true }` continues it under the
   * current ones); a `runId` that is not the log's open run fails with `NothingToResumeError`.
   */
  resumeRun(runId?: string, options?: ResumeRunOptions): Promise<RunResult> {
    return this.core.resumeRun(runId, options);
  }

  /** `resumeRun` as a stream: the resumed run's projected events, then `.result`. */
  streamResume(runId?: string, options?: StreamResumeOptions): EventStream {
    return this.core.streamResume(runId, options);
  }

  /** The capability catalog: the published generation (`catalog.current`), preparations (`prepare`, `addToolPack`), leases. */
  get catalog(): SessionCapabilityCatalog {
    return this.core.catalog;
  }

  /** Queues a message for the active run's next model call; the receipt says whether it was accepted. With `options.attachments` it resolves once they are checked and stored, or rejects (`AttachmentError`) and queues nothing. */
  steer(text: string, options: AttachedSteerOptions): Promise<SteerReceipt>;
  steer(text: string, options?: SteerOptions): SteerReceipt;
  steer(text: string, options?: SteerOptions | AttachedSteerOptions): SteerReceipt | Promise<SteerReceipt> {
    return isOptionsObject(options) && options.attachments !== undefined
      ? this.core.steer(text, options as unknown as AttachedSteerOptions)
      : this.core.steer(text, options);
  }

  /**
   * Cancels a run cooperatively. `{ runId, turnRevision? }` cancels only that run: an interrupt meant for a finished or
   * another run, or for a turn the run has moved past, returns `false` and never cancels the next run. Without a target (or
   * with only a reason) it cancels the active run. Returns whether a run was interrupted. `SESSION_CLOSED` once closed.
   */
  interrupt(target?: string | InterruptOptions): boolean {
    return this.core.interrupt(target);
  }

  /** Answers a parked confirmation (a fact in the log); the waiting run continues. */
  confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<void> {
    return this.core.confirmToolUse(toolId, approved, reason);
  }

  /** Answers a parked `ask_user` question with text, or `{ skipped: true }`. */
  answerQuestion(questionId: string, answer: string | QuestionAnswer): Promise<void> {
    return this.core.answerQuestion(questionId, answer);
  }

  /** Summarises the conversation now (a `compaction.done` fact); takes the session like a run. */
  compact(): Promise<{ readonly summaryChars: number; readonly factsFolded: number }> {
    return this.core.compact();
  }

  // ── Surface ─────────────────────────────────────────────────────────────────────────────
  /** Names of the tools the model sees. */
  toolNames(): readonly string[] {
    return this.core.toolNames();
  }

  /** Definitions (name, description, JSON Schema, tier) of the tools the model sees; synchronous. */
  toolDefinitions(): readonly ToolDefinition[] {
    return this.core.toolDefinitions();
  }

  /** The surface with tiers, static scheduling capabilities and required workspace capabilities. */
  toolInfo(): ToolInfo[] {
    return toolInfos(this.core.toolDescriptors());
  }

  /** Tool calls queued or running now. */
  activeTools(): readonly ActiveToolCall[] {
    return this.core.activeTools();
  }

  // ── Host-direct tools (no permission prompt, no transcript, no lease) ───────────────────
  /** Calls any tool as the host (a failed result is returned, not thrown); `options.signal` cancels it. */
  async tool(name: string, args: Record<string, unknown> = {}, options?: HostToolOptions): Promise<ToolResult> {
    return toToolResult(await this.core.tool(name, args, options));
  }

  /** A file's lines without the line-number gutter. @throws DirectToolError when the read fails. */
  readFile(path: string, options?: direct.ReadFileOptions): Promise<string> {
    return direct.readFile(this.#call, path, options);
  }

  /** Writes a file (creates folders as needed). */
  writeFile(path: string, content: string): Promise<ToolResult> {
    return direct.writeFile(this.#call, path, content);
  }

  /** Replaces exact text in a file (`edit`). */
  editFile(path: string, oldText: string, newText: string, options?: direct.EditFileOptions): Promise<ToolResult> {
    return direct.editFile(this.#call, path, oldText, newText, options);
  }

  /** Applies a unified diff to `path` (headers are added when the diff has none). */
  patchFile(path: string, diff: string): Promise<ToolResult> {
    return direct.patchFile(this.#call, path, diff);
  }

  /** Lists a folder (default: the workspace root). */
  ls(path?: string): Promise<ToolResult> {
    return direct.ls(this.#call, path);
  }

  /** Paths matching a glob. @throws DirectToolError when the call fails. */
  glob(pattern: string, options?: direct.GlobOptions): Promise<string[]> {
    return direct.glob(this.#call, pattern, options);
  }

  /** Matching lines (paths, counts by `outputMode`); `''` for no match. @throws DirectToolError when the call fails. */
  grep(pattern: string, options?: direct.GrepOptions): Promise<string> {
    return direct.grep(this.#call, pattern, options);
  }

  /** Runs a shell command in the workspace. @throws DirectToolError on a non-zero exit or timeout. */
  bash(command: string, options?: direct.BashOptions): Promise<string> {
    return direct.bash(this.#call, command, options);
  }

  /** Runs a `git` operation: `git('status')`, `git('log', { limit: 5 })`. */
  git(operation: GitOperation, args?: Record<string, unknown>): Promise<ToolResult> {
    return direct.git(this.#call, operation, args);
  }

  /**
   * Runs a JavaScript program (core's `program` tool) as the host: its `ctx` calls are governed
   * `host_nested` calls. The result's `metadataJson` holds `result` (the structured return value)
   * and `program` (calls, duration, truncation). A failed program is returned, not thrown.
   */
  async program(options: ProgramOptions): Promise<ToolResult> {
    return toToolResult(await this.core.tool('program', programArgs(options)));
  }

  // ── Memory ──────────────────────────────────────────────────────────────────────────────
  /**
   * Remembers `content` for later sessions of this workspace (one host call of the `remember`
   * tool; durable when it resolves). A `key` replaces the memory stored under it.
   * @throws DirectToolError when the session has no memory store (`memory: false`) or the input is refused.
   */
  remember(content: string, options?: memory.RememberOptions): Promise<memory.RecalledMemory> {
    return memory.remember(this.#call, content, options);
  }

  /** Memories matching any word of `query`, best first (the newest without a query); a `recall` host call. */
  recall(query?: string, options?: memory.RecallOptions): Promise<memory.RecalledMemory[]> {
    return memory.recall(this.#call, query, options);
  }

  // ── MCP ─────────────────────────────────────────────────────────────────────────────────
  /**
   * Adds and starts a session-private MCP server as a new capability generation: its tools join as
   * `mcp__<name>__<tool>` for the next run (a run in progress keeps the generation it pinned). On
   * any failure or cancellation (`options.signal`) the server is removed and the generation stays.
   * @throws McpConfigError (`MCP_CONFIG`) naming the key path; McpConnectionError when it cannot
   *   start; CatalogPreparationError for any other failure or a cancellation.
   */
  async addMcpServer(
    name: string,
    config: Readonly<Record<string, unknown>>,
    options?: PrepareOptions,
  ): Promise<McpServerStatus> {
    return this.#mcp.addServer(this.core, name, config, checkOptionsArg(options, 'session.addMcpServer'));
  }

  /**
   * The preparation steps that add the session-private server `name` (`mcp.start`, then
   * `mcp.discover`), to compose with other steps in one `session.catalog.prepare(...)`.
   */
  mcpServerSteps(
    name: string,
    config: Readonly<Record<string, unknown>>,
    options?: McpServerStepOptions,
  ): PreparationStep[] {
    return mcpServerSteps(this.#mcp.sources, name, config, options);
  }

  /** Removes a session-private server (its tools leave the surface). `false` for an unknown name; `MCP_OWNERSHIP` for an agent-global one; `SESSION_CLOSED` once closed. */
  async removeMcpServer(name: string): Promise<boolean> {
    if (this.core.closed) throw new SessionClosedError(this.sessionId, 'session.removeMcpServer');
    return this.#mcp.sources.removeMcpServer(name);
  }

  /** Every MCP server of the session (agent-global and private): state, tool count, last error, stderr tail. */
  mcpStatus(): readonly McpSessionServerStatus[] {
    return this.#mcp.sources.mcpStatus();
  }

  // ── Resources ───────────────────────────────────────────────────────────────────────────
  /**
   * The capabilities the session's resources provide, in attach order, with their state: tool
   * packs' (`resource.<name>`) and one per MCP server (`mcp.<server>`). A `failed` one carries its
   * error message and its tools are off the surface. A snapshot: call again to see changes.
   */
  resources(): readonly ResourceInfo[] {
    return resourceInfos(this.core.resources());
  }

  // ── Vibe mode ───────────────────────────────────────────────────────────────────────────
  /** Whether vibe mode is on (the `vibe_*` tools are on the surface); `false` for a session opened without `vibe`. */
  get vibeMode(): boolean {
    return this.#vibe?.enabled ?? false;
  }

  /**
   * Turns vibe mode on or off: the `vibe_*` tools join or leave the surface. Workers already
   * running go on (turn it on again to conduct them). Returns the new state.
   * @throws SessionConfigurationError (`vibe`) when the session was opened without the `vibe` option; SessionClosedError once it is closed.
   */
  setVibeMode(on: boolean): boolean {
    if (this.core.closed) throw new SessionClosedError(this.sessionId, 'session.setVibeMode');
    return switchVibe(this.#vibe, on);
  }

  // ── Delegation ──────────────────────────────────────────────────────────────────────────
  /** Delegates one sub-task to a sub-agent (a real child run; starts from the `agent` source). */
  task(spec: TaskSpec, options?: TaskOptions): Promise<TaskResult> {
    return this.core.task(spec, options);
  }

  /** Delegates 2..32 independent sub-tasks at once (`parallel_task`). */
  tasks(specs: readonly TaskSpec[], options?: TasksOptions): Promise<TasksResult> {
    return this.core.tasks(specs, options);
  }

  /** The result of a background task; waits unless `wait` is false. */
  taskResult(taskId: string, wait?: boolean): Promise<TaskResult> {
    return this.core.taskResult(taskId, wait);
  }

  // ── Completion gate ─────────────────────────────────────────────────────────────────────
  /** Runs verification commands (each a governed `bash` call) and records the report bound to the current changes. */
  verifyCommands(
    subject: string,
    commands: readonly VerificationCommand[],
    options?: VerifyOptions,
  ): Promise<VerificationReport> {
    return this.core.verifyCommands(subject, commands, options);
  }

  /** Waives verification for exactly this effect digest (a host decision, with the reason). */
  waiveCompletion(digest: string, reason: string): void {
    this.core.waiveCompletion(digest, reason);
  }

  /** The changes of a run (default: the active or latest) and their effect digest. */
  changeLedger(runId?: string): MutationLedger {
    return this.core.changeLedger(runId);
  }

  /** Every verification report of the session, oldest first. */
  verificationReports(): readonly VerificationReport[] {
    return this.core.verificationReports;
  }

  // ── Persistence ─────────────────────────────────────────────────────────────────────────
  /**
   * Saves the session (conversation, artifacts, trace, run records, verification reports) with
   * one `saveSnapshot` call; by default to `<dir>/.a3s/sessions/<thread>.json` (atomic replace).
   * Reopen it with `agent.resumeSession(sessionId, { dir })`.
   */
  save(): Promise<SessionSnapshotV1> {
    return this.core.save();
  }

  /** Interrupts the run in progress (it ends `cancelled`, `run.ended` recorded before the log closes; one not settled 5 s after the abort is recorded so by `close` itself), aborts running tool calls, closes the fact log and the session's private MCP servers. Idempotent. A run waiting at a park (an `onConfirm` approval, an `onQuestion` answer) is deliberately left parked in the log, as after a crash: its call settles `status: 'parked'` without `agent_end` or `run.ended`, and after reopening `confirmToolUse`/`answerQuestion` then `resumeRun()` continue it; `interrupt()` and await its result before `close()` to end it cancelled. */
  async close(): Promise<void> {
    try {
      await this.core.close();
    } finally {
      await this.#mcp.close();
    }
  }
}
