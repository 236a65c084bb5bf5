/**
 * A `ConfirmationManager` for tests: answers from a script, or waits until the test answers.
 */
import { CancelledError } from '../errors/tool-errors.js';
import type { ConfirmationAnswer, ConfirmationManager, ConfirmationRequest } from '../permissions/confirmation.js';

/** A scripted or manually answered confirmation manager. Records every request. */
export class ScriptedConfirmationManager implements ConfirmationManager {
  /** Every request, in order. */
  readonly requests: ConfirmationRequest[] = [];
  readonly #script: (boolean | ConfirmationAnswer)[];
  readonly #waiting = new Map<string, (a: ConfirmationAnswer) => void>();

  /** `script` answers requests in order; once it is used up, requests wait for {@link answer}. */
  constructor(script: readonly (boolean | ConfirmationAnswer)[] = []) {
    this.#script = [...script];
  }

  /** Ids of requests waiting for an answer. */
  get pending(): readonly string[] {
    return [...this.#waiting.keys()];
  }

  confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<ConfirmationAnswer> {
    this.requests.push(request);
    const next = this.#script.shift();
    if (next !== undefined) return Promise.resolve(typeof next === 'boolean' ? { approved: next } : next);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiting.delete(request.toolId);
        reject(new CancelledError(`confirmation of '${request.toolName}'`, signal.reason));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(request.toolId, (a) => {
        signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(request.toolId);
        resolve(a);
      });
    });
  }

  /** Answers a waiting request. Returns `false` when no such request waits. */
  answer(toolId: string, approved: boolean, reason?: string): boolean {
    const resolve = this.#waiting.get(toolId);
    if (resolve === undefined) return false;
    resolve(reason === undefined ? { approved } : { approved, reason });
    return true;
  }
}
