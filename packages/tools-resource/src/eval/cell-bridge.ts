/**
 * The `tool()` bridge of one cell on the host's side. A bridge message is served only when it names
 * the cell that is running (the kernels tag each with the cell that made it): one from a cell that
 * has ended (a timer, a thread or a promise it left behind) is refused, never served by the call
 * running now. When the cell ends, the calls it started and did not wait for are aborted, and the
 * cell's result waits (boundedly) for them to settle, so nothing a cell started runs on after it.
 */
import type { KernelMessage } from './kernel-protocol.js';
import type { BridgeReply, CellOptions } from './kernel-types.js';

/** Why a bridge message from a cell other than the running one is refused. */
export const CELL_ENDED = 'the cell that made this call has ended; tool() works only while its cell runs';

/** How long a cell's end waits for the bridge calls it aborted to settle, in milliseconds. */
export const CUT_OFF_WAIT_MS = 5_000;

/** Sends a `bridge_result` to the kernel. */
export type BridgeReplySender = (id: unknown, reply: BridgeReply) => void;

/** The bridge of one running cell. */
export class CellBridge {
  readonly #cell: number;
  readonly #serve: CellOptions['bridge'];
  readonly #reply: BridgeReplySender;
  readonly #changed: () => void;
  readonly #calls = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #served = 0;
  #cutOff = 0;

  /** `changed` is told whenever the number of calls in flight changes. */
  constructor(cell: number, serve: CellOptions['bridge'], reply: BridgeReplySender, changed: () => void) {
    this.#cell = cell;
    this.#serve = serve;
    this.#reply = reply;
    this.#changed = changed;
  }

  /** Calls served so far. */
  get served(): number {
    return this.#served;
  }

  /** Calls still going when the cell ended (aborted then). */
  get cutOff(): number {
    return this.#cutOff;
  }

  /** Calls in flight. */
  get outstanding(): number {
    return this.#inFlight.size;
  }

  /** Serves a `bridge` message of the kernel, or refuses it when it is not the running cell's. */
  handle(m: KernelMessage): void {
    if (m.cell !== this.#cell || this.#calls.signal.aborted) {
      this.#reply(m.id, { ok: false, output: CELL_ENDED });
      return;
    }
    this.#served += 1;
    const call = this.#serve(String(m.name ?? ''), m.args ?? {}, this.#calls.signal)
      .catch((e: unknown) => ({ ok: false, output: e instanceof Error ? e.message : String(e) }))
      .then((reply) => {
        this.#inFlight.delete(call);
        this.#reply(m.id, reply);
        this.#changed();
      });
    this.#inFlight.add(call);
    this.#changed();
  }

  /**
   * The cell has ended: every call still going is aborted (and counted in {@link cutOff}); resolves
   * once they settled, or after {@link CUT_OFF_WAIT_MS}.
   */
  async end(): Promise<void> {
    if (this.#calls.signal.aborted) return;
    this.#cutOff = this.#inFlight.size;
    this.#calls.abort(new Error(CELL_ENDED));
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#inFlight]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CUT_OFF_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
