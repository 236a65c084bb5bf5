/**
 * The request side of `a3s serve`: one line of input is one JSON-RPC message (or a batch); it is
 * parsed, its envelope checked, its params validated against the method's schema, and its
 * handler run. The messages of one session are handled one after another in arrival order, so a
 * client may pipeline `session/open` (with a `sessionId`) and `session/send`; handlers that start
 * runs answer at once and the run's events follow as notifications. Bad input is answered with an
 * error and the server keeps serving.
 */
import type { Io } from '../io.js';
import { DEFAULT_MAX_MESSAGE_BYTES, type Framing } from './framing.js';
import { cliVersion } from '../version.js';
import { METHODS, NOTIFICATIONS, SERVE_PROTOCOL_VERSION, type MethodName, type ParamsOf } from './protocol.js';
import {
  checkRequest,
  errorResponse,
  idOf,
  parseParams,
  response,
  RPC_ERROR,
  RpcError,
  type RpcRequest,
} from './rpc.js';
import type { ServeOutput } from './output.js';
import { ServeSessions } from './sessions.js';

/** The most requests one batch may hold. */
export const MAX_BATCH = 1000;

/** The queue of the messages that address no session. */
const GLOBAL = '';

/** The queue a message goes to: its session's, else the global one. */
function queueKeyOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return GLOBAL;
  const params = (value as { params?: unknown }).params;
  const id = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === 'string' ? `session:${id}` : GLOBAL;
}

/**
 * A method's handler. `written` settles once the response to the request was written (for a batch,
 * the batch's answer): a run the request starts sends nothing before that.
 */
type Handler<M extends MethodName> = (params: ParamsOf<M>, written: Promise<void>) => unknown;
type Handlers = { readonly [M in MethodName]: Handler<M> };

/** A server: feed it input lines; it writes responses and notifications to `out`. */
export class ServeServer {
  readonly #out: ServeOutput;
  readonly #io: Io;
  readonly #sessions: ServeSessions;
  readonly #handlers: Handlers;
  readonly #queues = new Map<string, Promise<void>>();
  #batches = 0;

  readonly #framing: Framing;
  readonly #maxMessageBytes: number;

  /** `maxMessageBytes` is the reader's limit of one incoming message, announced by `initialize`. */
  constructor(
    out: ServeOutput,
    io: Io,
    framing: Framing = 'ndjson',
    maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES,
  ) {
    this.#out = out;
    this.#io = io;
    this.#framing = framing;
    this.#maxMessageBytes = maxMessageBytes;
    this.#sessions = new ServeSessions(out, io);
    const s = this.#sessions;
    this.#handlers = {
      initialize: () => this.#initialize(),
      'session/open': (p) => s.open(p),
      'session/send': (p, written) => s.send(p, written),
      'session/interrupt': (p) => s.interrupt(p),
      'session/steer': (p) => s.steer(p),
      'confirmation/answer': (p, written) => s.confirm(p, written),
      'question/answer': (p, written) => s.answer(p, written),
      'session/tools': (p) => s.tools(p),
      'session/close': (p, written) => s.close(p, written),
      'session/list': () => s.list(),
      'session/resume': (p, written) => s.resume(p, written),
    };
  }

  /**
   * Queues one input message. Messages for one session (`params.sessionId`) are handled in the
   * order they arrived, also inside a batch; the others (`initialize`, `session/list`,
   * `session/open` without an id, bad input) in their own order. So a slow `session/open` (MCP servers starting)
   * never holds up an interrupt for another session. Resolves when the message was handled.
   */
  accept(line: string): Promise<void> {
    if (line.trim() === '') return Promise.resolve();
    let value: unknown;
    try {
      // A byte-order mark some Windows tools put before the first message is not part of it.
      value = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    } catch (e) {
      return this.#enqueue(GLOBAL, async () =>
        this.#out.message(
          errorResponse(null, new RpcError(RPC_ERROR.parseError, `Parse error: ${(e as Error).message}`)),
        ),
      );
    }
    if (Array.isArray(value)) return this.#batch(value);
    const written = gate();
    return this.#enqueue(queueKeyOf(value), async () => {
      try {
        const out = await this.#message(value, written.promise);
        if (out !== undefined) this.#out.message(out);
      } finally {
        written.open();
      }
    });
  }

  /** Answers input the framing could not cut into a message (a parse error), in turn with the messages. */
  badFrame(problem: string): Promise<void> {
    return this.#enqueue(GLOBAL, async () =>
      this.#out.message(errorResponse(null, new RpcError(RPC_ERROR.parseError, `Parse error: ${problem}`))),
    );
  }

  /**
   * On SIGTERM or SIGINT (`why`): the opens in flight are answered with `SHUTTING_DOWN` and later
   * ones refused, so {@link shutdown} does not wait for MCP servers still starting.
   */
  abandonOpens(why: string): void {
    this.#sessions.abandonOpens(why);
  }

  /** How many abandoned opens are still opening: the process must exit for their MCP servers to stop. */
  get abandonedOpens(): number {
    return this.#sessions.abandonedInFlight;
  }

  /** Waits for the queued messages, then closes every session (their active runs are interrupted; parked runs stay parked). */
  async shutdown(): Promise<void> {
    await Promise.all(this.#queues.values());
    await this.#sessions.closeAll();
  }

  #enqueue(key: string, task: () => Promise<void>): Promise<void> {
    const next = (this.#queues.get(key) ?? Promise.resolve()).then(task);
    const settled = next.catch(() => undefined);
    this.#queues.set(key, settled);
    void settled.then(() => {
      if (this.#queues.get(key) === settled) this.#queues.delete(key);
    });
    return next;
  }

  /**
   * A batch: each request joins the queue of its session (or the global one), so it keeps its
   * place among the messages of that session sent before and after the batch; the answers go out
   * as one array once every request was handled.
   */
  #batch(value: readonly unknown[]): Promise<void> {
    if (value.length === 0 || value.length > MAX_BATCH) {
      const message =
        value.length === 0
          ? 'Invalid Request: an empty batch'
          : `Invalid Request: a batch of ${value.length} requests; the most is ${MAX_BATCH} (none was handled)`;
      const error = errorResponse(null, new RpcError(RPC_ERROR.invalidRequest, message, { field: '(root)' }));
      return this.#enqueue(GLOBAL, async () => this.#out.message(error));
    }
    const written = gate();
    const answers = value.map((item) => {
      let out: string | undefined;
      return this.#enqueue(queueKeyOf(item), async () => {
        out = await this.#message(item, written.promise);
      }).then(() => out);
    });
    const batch = Promise.all(answers)
      .then((outs) => {
        const sent = outs.filter((o) => o !== undefined);
        if (sent.length > 0) this.#out.message(`[${sent.join(',')}]`);
      })
      .finally(() => written.open());
    // Shutdown waits for the batch's answer as for a queued message.
    return this.#enqueue(`batch:${++this.#batches}`, () => batch);
  }

  /** Handles one message; returns its response line, or nothing for a notification. */
  async #message(value: unknown, written: Promise<void>): Promise<string | undefined> {
    let request: RpcRequest;
    try {
      request = checkRequest(value);
    } catch (e) {
      return errorResponse(idOf(value), e);
    }
    const id = request.id;
    // `$/` notifications (`$/cancelRequest`, `$/setTrace`) are optional by the JSON-RPC and LSP
    // convention: one the server does not implement is ignored. Requests to them are answered.
    if (id === undefined && request.method.startsWith('$/')) return undefined;
    try {
      const result = await this.#dispatch(request, written);
      return id === undefined ? undefined : response(id, result);
    } catch (e) {
      if (id === undefined) {
        this.#io.stderr.write(`a3s serve: notification ${request.method} failed: ${(e as Error).message}\n`);
        return undefined;
      }
      return errorResponse(id, e);
    }
  }

  #dispatch(request: RpcRequest, written: Promise<void>): unknown {
    const method = request.method;
    if (!Object.hasOwn(METHODS, method))
      throw new RpcError(
        RPC_ERROR.methodNotFound,
        `Method not found: ${shownMethod(method)}; methods: ${Object.keys(METHODS).join(', ')}`,
        { method: method.length <= 200 ? method : `${method.slice(0, 200)}…` },
      );
    const m = method as MethodName;
    const params = parseParams(METHODS[m].params, request.params);
    return (this.#handlers[m] as Handler<MethodName>)(params as never, written);
  }

  /** The server's answer to `initialize` (its params were validated: a protocol version other than 1 is refused). */
  #initialize(): unknown {
    return {
      protocolVersion: SERVE_PROTOCOL_VERSION,
      serverInfo: { name: 'a3s', version: cliVersion() },
      capabilities: {
        methods: Object.keys(METHODS),
        notifications: Object.keys(NOTIFICATIONS),
        eventEnvelopeVersion: 1,
        framing: this.#framing,
        maxMessageBytes: this.#maxMessageBytes,
      },
    };
  }
}

/** A method name as an error shows it: quoted, and clipped when long (a client may send megabytes). */
function shownMethod(method: string): string {
  return method.length <= 200 ? `'${method}'` : `'${method.slice(0, 200)}…' (${method.length} characters)`;
}

/** A promise and the function that settles it. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
