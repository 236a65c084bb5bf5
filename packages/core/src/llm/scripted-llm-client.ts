/**
 * `ScriptedLlmClient`: a deterministic model that plays back a script of turns and records
 * every request it receives. It is product, not a mock: the CLI's `--model scripted:<file>`
 * runs the whole agent offline with it. Script format (ARCHITECTURE §8):
 *
 * ```json
 * { "turns": [
 *   { "text": "I'll look first.", "tool_calls": [ { "id": "c1", "name": "read", "args": { "file_path": "README.md" } } ] },
 *   { "question": { "question": "Which file?", "options": [ { "label": "a.ts" } ] } },
 *   { "error": { "kind": "rate_limited", "retry_after_ms": 20 } },
 *   { "delay_ms": 50, "text": "Done.", "usage": { "input_tokens": 120, "output_tokens": 8 } }
 * ] }
 * ```
 *
 * A `question` turn is a call of the `ask_user` tool. A run that asks for more turns than the
 * script has fails with `SCRIPT_EXHAUSTED`, naming the turn.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { A3sError } from '@a3s-code/effect';
import { suggestKey } from '../config/did-you-mean.js';
import { jsonSyntaxError } from '../config/json-syntax.js';
import {
  parseScriptWithoutZod,
  getScriptSchemas,
  type LlmScript,
  type ParsedTurn,
  type ScriptedTurn,
} from './script-schema.js';
import type { LlmCapabilities, LlmClient, LlmForkIdentity, LlmRequest, LlmStreamEvent } from './llm-client.js';
import { abortableSleep } from './abortable-sleep.js';
import { LlmError } from './llm-error.js';
import { toolArgsFromValue } from './tool-args-text.js';

export type { LlmScript, ScriptedTurn } from './script-schema.js';

/** The script is malformed (names the field) or has run out of turns (names the turn). */
export class ScriptError extends A3sError {
  constructor(code: 'INVALID_SCRIPT' | 'SCRIPT_EXHAUSTED', message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}

/** The largest script file read. */
const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;

/** What a script file must be, for the messages. */
const SCRIPT_FILE = 'a JSON script file ({ "turns": [...] })';

/** Why a script file could not be opened or read, without the system call's jargon. */
function unreadable(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `no such script file '${path}'; allowed: ${SCRIPT_FILE}`;
  if (code === 'EACCES' || code === 'EPERM') return `cannot read script file '${path}': permission denied`;
  return `cannot read script file '${path}': ${(e as Error).message}`;
}

/** `is not a known key; allowed keys: …`, with the allowed key it is a respelling of (`toolCalls` → `tool_calls`). */
function unknownKeyMessage(key: string, allowed: string): string {
  const norm = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
  const keys = allowed.replace(/^allowed keys: /, '').split(', ');
  const near = keys.find((k) => norm(k) === norm(key)) ?? suggestKey(key, keys);
  return `is not a known key; ${allowed}${near === undefined ? '' : ` (did you mean '${near}'?)`}`;
}

const CAPABILITIES: LlmCapabilities = Object.freeze({
  forcedToolChoice: true,
  strictJsonSchema: true,
  jsonMode: true,
  nonStreaming: false,
  reasoning: true,
  parallelToolCalls: true,
});

/** Options of a {@link ScriptedLlmClient}. */
export interface ScriptedLlmClientOptions {
  /** Model name reported (default `scripted`). */
  readonly model?: string;
  /** Where the script came from, for error messages. */
  readonly source?: string;
  /**
   * Whether the client can fork (`fork(identity)`), as a provider with forkable sessions can.
   * Default `true`; `false` plays a provider that cannot, so forked work stays one call at a time.
   */
  readonly forkable?: boolean;
  /**
   * How many of the latest requests {@link ScriptedLlmClient.requests} keeps (default: all, as
   * tests read them). Each request carries the whole conversation, so keeping all of a long
   * session grows with the square of its length; a script run as a model (`scripted:<file>`) keeps none.
   */
  readonly keepRequests?: number;
}

/** Plays back a script of turns; `requests` holds every request received, in order. */
export class ScriptedLlmClient implements LlmClient {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_ScriptedLlmClient`; people read `ScriptedLlmClient`.
    Object.defineProperty(this, 'name', { value: 'ScriptedLlmClient' });
  }
  readonly provider = 'scripted';
  readonly model: string;
  readonly capabilities = CAPABILITIES;
  /** Every request received, in order (a snapshot of each), forks' requests included. */
  readonly requests: LlmRequest[] = [];
  /** For each of {@link requests}, the identity of the fork that sent it, or `null` for this client itself. */
  readonly requestForks: (LlmForkIdentity | null)[] = [];
  /** Forks made so far, in order (present only when the client is forkable). */
  readonly forks: LlmForkIdentity[] = [];
  /**
   * A client bound to `identity` that plays the next turns of this same script (one script, one
   * turn counter, one request log): present unless the client was made with `forkable: false`.
   */
  readonly fork?: (identity: LlmForkIdentity) => LlmClient;
  private readonly turns: readonly ParsedTurn[];
  private readonly source: string;
  private next = 0;
  private priorTurns = 0;
  readonly #keep: number;

  constructor(script: LlmScript | readonly ScriptedTurn[], options: ScriptedLlmClientOptions = {}) {
    const raw = Array.isArray(script) ? { turns: script } : script;
    this.source = options.source ?? 'script';
    const keep = options.keepRequests;
    this.#keep = keep !== undefined && Number.isSafeInteger(keep) && keep >= 0 ? keep : Number.POSITIVE_INFINITY;
    // A well-formed script is read without zod; zod judges the rest and names the first problem.
    const fast = parseScriptWithoutZod(raw);
    const parsed =
      fast === undefined ? getScriptSchemas().scriptSchema.safeParse(raw) : { success: true as const, data: fast };
    if (!parsed.success) {
      // A misspelt key is what to name first: the key it stands for is then missing too.
      const issues = parsed.error.issues;
      const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
      const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const path = unknownKey === undefined ? issue.path : [...issue.path, unknownKey];
      const field = path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : `${p}.${String(k)}`), '');
      const message = unknownKey === undefined ? issue.message : unknownKeyMessage(unknownKey, issue.message);
      throw new ScriptError('INVALID_SCRIPT', `${this.source}: ${field.replace(/^\./, '') || '(root)'}: ${message}`, {
        field,
      });
    }
    this.turns = parsed.data.turns;
    this.model = options.model ?? parsed.data.model ?? 'scripted';
    if (options.forkable !== false) this.fork = (identity) => this.forkFor(identity);
  }

  private forkFor(identity: LlmForkIdentity): LlmClient {
    const bound = Object.freeze({ runId: String(identity.runId), stepId: String(identity.stepId) });
    this.forks.push(bound);
    return Object.freeze({
      provider: this.provider,
      model: this.model,
      capabilities: this.capabilities,
      identity: bound,
      stream: (request: LlmRequest) => this.play(request, bound),
    });
  }

  /**
   * Loads a JSON script file (a regular file of at most 64 MiB).
   * @throws ScriptError `INVALID_SCRIPT` naming the file and what is wrong.
   */
  static async fromFile(
    path: string,
    options: Omit<ScriptedLlmClientOptions, 'source'> = {},
  ): Promise<ScriptedLlmClient> {
    let text: string;
    let handle: FileHandle | undefined;
    try {
      // Opened without blocking and judged by the open file: a FIFO or a device never hangs or floods the read.
      handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      const stat = await handle.stat();
      if (stat.isDirectory())
        throw new ScriptError('INVALID_SCRIPT', `script file '${path}' is a folder; allowed: ${SCRIPT_FILE}`, { path });
      if (!stat.isFile())
        throw new ScriptError(
          'INVALID_SCRIPT',
          `script file '${path}' is not a regular file (a FIFO, device or socket); allowed: a JSON file ({ "turns": [...] })`,
          { path },
        );
      if (stat.size > MAX_SCRIPT_BYTES)
        throw new ScriptError(
          'INVALID_SCRIPT',
          `script file '${path}' is ${stat.size} bytes; allowed: at most ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB`,
          { path },
        );
      // A byte-order mark some editors write is not part of the JSON (a config file accepts it too).
      text = (await handle.readFile('utf8')).replace(/^\uFEFF/, '');
    } catch (e) {
      if (e instanceof ScriptError) throw e;
      throw new ScriptError('INVALID_SCRIPT', unreadable(path, e), { path });
    } finally {
      await handle?.close();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      const at = jsonSyntaxError(text);
      const where =
        at === undefined ? `: ${(e as Error).message}` : ` (${path}:${at.line}:${at.column}): ${at.message}`;
      throw new ScriptError('INVALID_SCRIPT', `script file '${path}' is not valid JSON${where}`, { path });
    }
    return new ScriptedLlmClient(json as LlmScript, { ...options, source: path });
  }

  /**
   * Tells the client how many model turns a session's log already recorded when it was opened
   * with this client: the script still plays from its first turn (each turn answers one call
   * of this process), and when it runs out its error says that a resumed session needs a
   * script of the turns after those.
   */
  notePriorTurns(recorded: number): void {
    if (Number.isSafeInteger(recorded) && recorded > 0 && this.next === 0) this.priorTurns = recorded;
  }

  /** Turns not yet played. */
  get remaining(): number {
    return this.turns.length - this.next;
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.play(request, null);
  }

  private async *play(request: LlmRequest, fork: LlmForkIdentity | null): AsyncIterable<LlmStreamEvent> {
    if (this.#keep > 0) {
      this.requests.push(snapshot(request));
      this.requestForks.push(fork);
      if (this.requests.length > this.#keep) {
        this.requests.shift();
        this.requestForks.shift();
      }
    }
    const index = this.next++;
    const turn = this.turns[index];
    if (!turn) {
      throw new ScriptError(
        'SCRIPT_EXHAUSTED',
        `${this.source}: the model was called for turn ${index + 1}, but the script has only ${this.turns.length} turn(s)${
          this.priorTurns === 0
            ? ''
            : `; it plays from its first turn in each process, and the session's log had ${this.priorTurns} model turn(s) when it was opened: to continue a session, give a script of the turns after those`
        }`,
        { turn: index + 1, turns: this.turns.length },
      );
    }
    if (turn.delay_ms) await sleep(turn.delay_ms, request.signal);
    if (request.signal?.aborted)
      throw new LlmError('cancelled', 'scripted model call was cancelled', { provider: this.provider });
    if (turn.error) {
      const e = turn.error;
      throw new LlmError(e.kind, e.message ?? `scripted ${e.kind} error (turn ${index + 1})`, {
        provider: this.provider,
        ...(e.status === undefined ? {} : { status: e.status }),
        ...(e.retry_after_ms === undefined ? {} : { retryAfterMs: e.retry_after_ms }),
      });
    }
    if (turn.reasoning) yield { type: 'reasoning_delta', delta: turn.reasoning };
    for (const piece of chunks(turn.text ?? '')) yield { type: 'text_delta', delta: piece };
    const calls = [...(turn.tool_calls ?? [])];
    if (turn.question) {
      const q = turn.question;
      calls.push({
        name: 'ask_user',
        args: {
          question: q.question,
          options: q.options,
          ...(q.context ? { context: q.context } : {}),
          allow_free_text: q.allow_free_text ?? true,
          multi_select: q.multi_select ?? false,
        },
      });
    }
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const id = call.id ?? `call_${index + 1}_${i + 1}`;
      // As from a real provider: arguments JSON cannot carry (a number such as 1e400, nesting too
      // deep for the log) are answered INVALID_TOOL_ARGS.
      const args = toolArgsFromValue(call.args);
      yield { type: 'tool_call_start', index: i, id, name: call.name };
      yield { type: 'tool_call_delta', index: i, id, argsDelta: JSON.stringify(args) };
      yield { type: 'tool_call_end', index: i, call: { id, name: call.name, args } };
    }
    const usage = turn.usage ?? {
      input_tokens: estimateTokens(request),
      output_tokens: Math.ceil((turn.text ?? '').length / 4) + calls.length * 10,
    };
    yield { type: 'usage', usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } };
    yield { type: 'finish', reason: turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop') };
  }
}

function snapshot(request: LlmRequest): LlmRequest {
  const { signal: _signal, ...rest } = request;
  return structuredClone(rest);
}

/** Splits text into word-sized deltas, as a real stream would. */
function chunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** A rough token count (4 characters a token) for scripts that do not give usage. */
function estimateTokens(request: LlmRequest): number {
  let chars = request.system.join('\n').length;
  for (const m of request.messages) chars += m.content.length;
  return Math.ceil(chars / 4);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortableSleep(
    ms,
    signal,
    () => new LlmError('cancelled', 'scripted model call was cancelled', { provider: 'scripted' }),
  );
}
