/**
 * The abort state of one call. It aborts when any parent signal aborts (run, session, parent
 * call) or when the call's timeout elapses, exactly like a linked `AbortController`, but the
 * `AbortSignal` itself is made only when something asks for it (`ctx.signal`, a nested call):
 * most calls never read it, and an `AbortController` is among the dearest objects a call would
 * otherwise allocate. The kernel waits on it through one plain callback instead of an event
 * listener, and a nested call links to its parent call's `CallSignal` directly, so nesting makes
 * no `AbortSignal` either.
 */
import { CancelledError, ToolTimeoutError } from '../errors/tool-errors.js';

/** Why a nested call still going when its parent call ends is aborted. */
const ENDED = 'the call that started it has ended';

/** The live calls linked to each parent signal; one `abort` listener per parent, not one per call. */
const linked = new WeakMap<AbortSignal, Set<CallSignal>>();

/** Whether something aborted, and why: what {@link CallSignal} and `AbortSignal` both answer. */
export interface AbortState {
  readonly aborted: boolean;
  readonly reason: unknown;
}

/** What a call inherits its abort from: the run's (or session's) signal, or its parent call's. */
export type ParentSignal = AbortSignal | CallSignal;

/** The `AbortSignal` of `parent` (a parent call's is made on first use). */
export function abortSignalOf(parent: ParentSignal): AbortSignal {
  return parent instanceof CallSignal ? parent.signal : parent;
}

/** A call's signal, made on first use; see the module comment. */
export class CallSignal implements AbortState {
  #aborted = false;
  #reason: unknown = undefined;
  #controller: AbortController | undefined;
  #inA: Set<CallSignal> | undefined;
  #inB: Set<CallSignal> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #waiter: ((reason: unknown) => void) | undefined;
  /** The live calls nested in this one. */
  #children: Set<CallSignal> | undefined;
  /** Set once the call has ended ({@link dispose}). */
  #disposed = false;

  /** Links `a` and `b` (parents) and an optional timeout. */
  constructor(a: ParentSignal, b: ParentSignal, timeout?: { readonly ms: number; readonly toolName: string }) {
    if (a.aborted) {
      this.#abort(a.reason);
      return;
    }
    if (b.aborted) {
      this.#abort(b.reason);
      return;
    }
    if (CallSignal.#ended(a) || CallSignal.#ended(b)) {
      this.#abort(new CancelledError('the nested call', ENDED));
      return;
    }
    this.#inA = CallSignal.#join(a, this);
    this.#inB = a === b ? undefined : CallSignal.#join(b, this);
    if (timeout !== undefined) {
      this.#timer = setTimeout(() => this.#abort(new ToolTimeoutError(timeout.toolName, timeout.ms)), timeout.ms);
    }
  }

  /** True once a parent or the timeout aborted the call. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** The abort reason (the parent's reason, or the timeout error). */
  get reason(): unknown {
    return this.#reason;
  }

  /** The call's `AbortSignal`, made on first use (already aborted when the call is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Settles `work`, or rejects with the abort reason as soon as the call aborts (a late result is dropped). */
  settle<T>(work: Promise<T>): Promise<T> {
    if (this.#aborted) return Promise.reject(this.#reason);
    return new Promise<T>((resolve, reject) => {
      this.#waiter = reject;
      work.then(
        (v) => {
          this.#waiter = undefined;
          resolve(v);
        },
        (e: unknown) => {
          this.#waiter = undefined;
          reject(e);
        },
      );
    });
  }

  /**
   * Stops the timer and detaches from the parents. The call has ended: the calls nested in it that
   * are still going (ones its tool started and did not wait for) are aborted, since nothing would
   * abort them any more (the run's cancellation reaches a nested call only through its parent).
   */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#inA?.delete(this);
    this.#inB?.delete(this);
    this.#disposed = true;
    const children = this.#children;
    this.#children = undefined;
    if (children === undefined || children.size === 0) return;
    const reason = new CancelledError('the nested call', ENDED);
    for (const c of [...children]) c.#abort(reason);
  }

  /** True when `parent` is a call that has ended (a call nested in it then never starts). */
  static #ended(parent: ParentSignal): boolean {
    return parent instanceof CallSignal && parent.#disposed;
  }

  static #join(parent: ParentSignal, call: CallSignal): Set<CallSignal> {
    if (parent instanceof CallSignal) {
      parent.#children ??= new Set();
      parent.#children.add(call);
      return parent.#children;
    }
    let set = linked.get(parent);
    if (set === undefined) {
      const created = new Set<CallSignal>();
      set = created;
      linked.set(parent, created);
      parent.addEventListener(
        'abort',
        () => {
          linked.delete(parent);
          for (const c of [...created]) c.#abort(parent.reason);
        },
        { once: true },
      );
    }
    set.add(call);
    return set;
  }

  #abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(reason);
    this.#controller?.abort(reason);
    const children = this.#children;
    this.#children = undefined;
    if (children !== undefined) for (const c of [...children]) c.#abort(reason);
  }
}
