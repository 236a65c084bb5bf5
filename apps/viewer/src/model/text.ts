/** Small text helpers for titles: one line, bounded. */

/** The first non-empty line of `text`, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 120): string {
  let line = '';
  for (const l of text.split('\n', 20)) {
    if (l.trim() !== '') {
      line = l.trim();
      break;
    }
  }
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A short rendering of tool arguments: `file_path=a.ts command="ls"` style, bounded. */
export function argsLine(args: Record<string, unknown>, max = 80): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    const shown = typeof v === 'string' ? oneLine(v, 40) : JSON.stringify(v);
    parts.push(`${k}=${shown ?? 'undefined'}`);
  }
  const s = parts.join(' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Milliseconds for people: `850 ms`, `2.4 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A cost for people: `$0.0123`, `$1.23`; never `$0.00` for a spend. */
export function formatCost(cost: number): string {
  if (cost === 0) return '$0';
  if (cost < 0.000_001) return '<$0.000001';
  if (cost < 0.01) return `$${Number(cost.toPrecision(2)).toFixed(8).replace(/0+$/, '')}`;
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}
