/**
 * The `session/open` requests of `a3s serve` still opening (MCP servers starting, which may take
 * up to their start-up deadline). On SIGTERM or SIGINT the server does not wait for them: each is
 * abandoned — answered with a `SHUTTING_DOWN` error — and the session it still opens is closed as
 * soon as it is open; the server then exits, and the exit hooks kill the MCP servers still
 * starting. Opens that arrive after that are refused at once.
 */
import type { OpenedSession } from '../open-session.js';
import { RPC_ERROR, RpcError } from './rpc.js';

/** The opens in flight of one server. */
export class Openings {
  readonly #abandon = new Set<(e: RpcError) => void>();
  #stopping: string | undefined;
  #inFlight = 0;

  /** How many abandoned opens have not settled yet (the process must exit for their servers to stop). */
  get abandonedInFlight(): number {
    return this.#inFlight;
  }

  /** Refuses an open once the server is shutting down. @throws RpcError `SHUTTING_DOWN`. */
  check(): void {
    if (this.#stopping !== undefined) throw shuttingDown(this.#stopping);
  }

  /**
   * `opening`, unless the server is told to shut down first: the open is then refused with
   * `SHUTTING_DOWN` and the session, once open, closed again.
   */
  track(opening: Promise<OpenedSession>): Promise<OpenedSession> {
    this.check();
    return new Promise<OpenedSession>((resolve, reject) => {
      const abandon = (e: RpcError): void => {
        this.#abandon.delete(abandon);
        this.#inFlight++;
        reject(e);
        void opening
          .then((opened) => opened.close())
          .catch(() => undefined)
          .finally(() => this.#inFlight--);
      };
      this.#abandon.add(abandon);
      opening.then(
        (opened) => {
          if (this.#abandon.delete(abandon)) resolve(opened);
        },
        (e: unknown) => {
          if (this.#abandon.delete(abandon)) reject(e);
        },
      );
    });
  }

  /** Abandons every open in flight and refuses the ones to come; `why` names the signal. */
  abandonAll(why: string): void {
    this.#stopping ??= why;
    for (const abandon of [...this.#abandon]) abandon(shuttingDown(this.#stopping));
  }
}

function shuttingDown(why: string): RpcError {
  return new RpcError(
    RPC_ERROR.runtimeError,
    `SHUTTING_DOWN: the server is shutting down (${why}); the session was not opened (open it again in a new server)`,
    { code: 'SHUTTING_DOWN' },
  );
}
