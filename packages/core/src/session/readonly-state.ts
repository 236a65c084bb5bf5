/**
 * The read-only view of a session's folded state that `session.state` hands out. The fold's own
 * objects (its messages, tool calls, usage) are shared with the fold and the log's facts, so a
 * host changing what it was given would change the next model request without a fact. The view
 * is a deeply frozen copy instead, kept cheap: each fold object is copied once (the fold never
 * changes an object it has made, it replaces it), the conversation array is built only when read,
 * and the whole view is reused until the log grows.
 */
import type { Folder, FoldState, FoldView, Message } from '@a3s-code/effect';

/** Makes and caches the frozen views of one fold. */
export class ReadonlyState {
  /** Frozen copies of the fold's objects, by the original. */
  readonly #copies = new WeakMap<object, unknown>();
  #count = -1;
  #view: FoldState | undefined;

  /** The frozen view of `folder`'s state now (the same object until the fold applies another fact). */
  of(folder: Folder): FoldState {
    if (this.#view !== undefined && this.#count === folder.count) return this.#view;
    this.#view = this.#freeze(folder.state);
    this.#count = folder.count;
    return this.#view;
  }

  #freeze(state: FoldState): FoldState {
    const v = state.view;
    let messages: readonly Message[] | undefined;
    const copyOf = <T>(x: T): T => this.#copy(x);
    const view: FoldView = {
      system: this.#copy(v.system),
      tools: this.#copy(v.tools),
      tools_enabled: v.tools_enabled,
      offered_tools: this.#copy(v.offered_tools),
      get messages(): readonly Message[] {
        messages ??= freezeMessages(v.messages, copyOf);
        return messages;
      },
      pending_confirmation: this.#copy(v.pending_confirmation),
      pending_question: this.#copy(v.pending_question),
      assistant_text: v.assistant_text,
      usage: this.#copy(v.usage),
      last_usage: this.#copy(v.last_usage),
      get context_chars(): number {
        return v.context_chars;
      },
      run: this.#copy(v.run),
    };
    return Object.freeze({
      phase: state.phase,
      view: Object.freeze(view),
      counters: Object.freeze({ ...state.counters }),
      next_call: this.#copy(state.next_call),
    });
  }

  /** A deeply frozen copy of `value`, made once per original object. */
  #copy<T>(value: T): T {
    if (value === null || typeof value !== 'object') return value;
    const known = this.#copies.get(value);
    if (known !== undefined) return known as T;
    const copy = this.#copyFresh(value);
    this.#copies.set(value, copy);
    return copy;
  }

  #copyFresh<T extends object>(value: T): T {
    if (Array.isArray(value)) return Object.freeze(value.map((item: unknown) => this.#copy(item))) as T;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      Object.defineProperty(out, key, {
        value: this.#copy((value as Record<string, unknown>)[key]),
        enumerable: true,
      });
    return Object.freeze(out) as T;
  }
}

function freezeMessages(messages: readonly Message[], copy: <T>(x: T) => T): readonly Message[] {
  const out: Message[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) out[i] = copy(messages[i]!);
  return Object.freeze(out);
}
