/**
 * Tool-call ids as the log records them. Providers promise unique ids, but local models reuse
 * them (`call_0` in every turn, twice in one turn) or send none. Keys of the log and of the fold
 * are built from these ids, so a response's ids are made unique within it before the decision
 * is recorded; the model is shown the recorded ids from then on, so its conversation stays
 * consistent. Ids that are already unique and non-empty are kept exactly.
 */
import type { LlmToolCall } from '../llm/llm-client.js';

/**
 * The calls of one response, with every id unique and non-empty. A repeated or empty id gets a
 * new one derived from the original and the call's position (`call_0-2`), never reusing an id
 * the response already holds. `turn` and `cycle` name the transition, for ids made from nothing.
 */
export function uniqueCallIds(calls: readonly LlmToolCall[], turn: number, cycle: number): LlmToolCall[] {
  const taken = new Set<string>();
  const original = new Set(calls.map((c) => c.id));
  return calls.map((c, i) => {
    if (c.id.length > 0 && !taken.has(c.id)) {
      taken.add(c.id);
      return c;
    }
    const base = c.id.length > 0 ? c.id : `call_${turn}_${cycle}`;
    let n = i + 1;
    let id = `${base}-${n}`;
    while (taken.has(id) || original.has(id)) id = `${base}-${++n}`;
    taken.add(id);
    return { ...c, id };
  });
}
