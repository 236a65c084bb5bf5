/**
 * Tool-call ids as the log records them. Providers promise unique ids, but local models reuse
 * them (`call_0` in every turn, twice in one turn) or send none. Keys of the log and of the fold
 * are built from these ids, so a response's ids are made unique within it before the decision
 * is recorded; the model is shown the recorded ids from then on, so its conversation stays
 * consistent. Ids that are already unique, non-empty and at most {@link MAX_CALL_ID_CHARS} long are
 * kept exactly; a longer id (it would not fit in the keys of the facts about the call) is replaced.
 */
import type { LlmToolCall } from '../llm/llm-client.js';

/** The longest tool-call id kept as the model sent it (fact keys hold the id and are at most 512 chars). */
export const MAX_CALL_ID_CHARS = 256;

/**
 * The calls of one response, with every id unique, non-empty and at most {@link MAX_CALL_ID_CHARS}
 * long. A repeated id gets a new one derived from the original and the call's position
 * (`call_0-2`), never reusing an id the response already holds; an empty or too long id gets one
 * made from `turn` and `cycle`, which name the transition (`call_2_1-1`).
 */
export function uniqueCallIds(calls: readonly LlmToolCall[], turn: number, cycle: number): LlmToolCall[] {
  const taken = new Set<string>();
  const original = new Set(calls.map((c) => c.id));
  return calls.map((c, i) => {
    const usable = typeof c.id === 'string' && c.id.length > 0 && c.id.length <= MAX_CALL_ID_CHARS;
    if (usable && !taken.has(c.id)) {
      taken.add(c.id);
      return c;
    }
    const base = usable ? c.id : `call_${turn}_${cycle}`;
    let n = i + 1;
    let id = `${base}-${n}`;
    while (taken.has(id) || original.has(id)) id = `${base}-${++n}`;
    taken.add(id);
    return { ...c, id };
  });
}
