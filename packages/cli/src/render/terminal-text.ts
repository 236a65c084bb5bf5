/**
 * Events made safe to print on a terminal: core's `terminalText` (escape sequences removed, other
 * controls and bidirectional overrides shown as visible marks) for every string inside them.
 */
import { terminalText } from '@a3s-code/core';

/**
 * `value` with every string in it (at any depth, keys too) passed through `terminalText`; the
 * same object when nothing in it needed a change (most events), so printing allocates nothing.
 */
export function terminalSafe<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any event nests: shown as a mark, never unchecked.
  if (depth > 32) return '[…]' as T;
  if (Array.isArray(value)) {
    const items = value.map((v) => terminalSafe(v, depth + 1));
    return (items.every((v, i) => v === value[i]) ? value : items) as T;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = terminalText(k);
    const safe = terminalSafe(v, depth + 1);
    if (key !== k || safe !== v) changed = true;
    out[key] = safe;
  }
  return (changed ? out : value) as T;
}
