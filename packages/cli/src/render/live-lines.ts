/**
 * Live output of running calls (`tool_output_delta`), printed line by line under the call's card
 * (`│ …`): a partial line waits for its end or for the call's end. At most {@link LIVE_LINES}
 * lines per call are shown; the rest is counted.
 */

/** Lines of live output shown per call. */
export const LIVE_LINES = 200;

interface CallOutput {
  partial: string;
  shown: number;
  hidden: number;
}

/** Splits each call's deltas into whole lines. */
export class LiveLines {
  readonly #calls = new Map<string, CallOutput>();

  /** Whether `id` has streamed output. */
  has(id: string): boolean {
    return this.#calls.has(id);
  }

  /** The whole lines `delta` completes for call `id`, within the per-call limit. */
  push(id: string, delta: string): string[] {
    let c = this.#calls.get(id);
    if (!c) {
      c = { partial: '', shown: 0, hidden: 0 };
      this.#calls.set(id, c);
    }
    const parts = (c.partial + delta.replace(/\r\n?/g, '\n')).split('\n');
    c.partial = parts.pop() ?? '';
    return this.#limit(c, parts);
  }

  /** Ends call `id`: its partial line, and a count of the lines not shown. */
  end(id: string): { readonly lines: string[]; readonly hidden: number } {
    const c = this.#calls.get(id);
    if (!c) return { lines: [], hidden: 0 };
    this.#calls.delete(id);
    const lines = c.partial === '' ? [] : this.#limit(c, [c.partial]);
    return { lines, hidden: c.hidden };
  }

  #limit(c: CallOutput, lines: string[]): string[] {
    const room = Math.max(0, LIVE_LINES - c.shown);
    c.shown += Math.min(room, lines.length);
    c.hidden += Math.max(0, lines.length - room);
    return lines.slice(0, room);
  }
}
