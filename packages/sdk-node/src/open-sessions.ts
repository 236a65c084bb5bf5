/**
 * The sessions an agent opened and has not seen closed, so that `agent.close()` closes them too:
 * their runs are cancelled, their commands killed and their logs released before the agent's
 * MCP servers stop under them.
 */
import { AgentClosedError } from './errors.js';
import type { Session } from './session.js';

/** An agent's open sessions; closed ones are dropped as new ones come. */
export class OpenSessions {
  readonly #open = new Set<Session>();
  #closing = false;

  /**
   * Keeps `session` until the agent closes. A session whose opening finished after
   * `agent.close()` began is closed at once.
   * @throws AgentClosedError when the agent is closing or closed.
   */
  async add(session: Session): Promise<Session> {
    if (this.#closing) {
      await session.close();
      throw new AgentClosedError();
    }
    for (const s of this.#open) if (s.closed) this.#open.delete(s);
    this.#open.add(session);
    return session;
  }

  /** Closes every session still open, all at once; the first failure is thrown once all have settled. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    const sessions = [...this.#open];
    this.#open.clear();
    const settled = await Promise.allSettled(sessions.map((s) => s.close()));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}
