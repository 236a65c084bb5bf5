/** Small text helpers for titles: one line, bounded; untrusted text made visible. */

// Controls (but tab and newline), a CR not before a newline, and the characters that reorder or
// hide text (bidirectional overrides and isolates, marks, zero-width): what {@link visible} marks.
const HIDDEN_RE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\r(?!\n)/g;
const ANY_HIDDEN_RE = new RegExp(HIDDEN_RE.source);

function mark(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` as the page shows it: controls (an ANSI escape's ESC included) as `^[`-style marks and the
 * characters that reorder or hide text as `<U+202E>`-style marks, so a log's text cannot read other
 * than it is (a right-to-left override turning `gnp.exe` into `exe.png`). Tabs and newlines stay.
 */
export function visible(text: string): string {
  return ANY_HIDDEN_RE.test(text) ? text.replace(HIDDEN_RE, mark) : text;
}

/** An `at_ms` stamp for people: ISO 8601, or the raw number when it is no date (out of range). */
export function formatStamp(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? `at_ms ${ms} (not a date)` : d.toISOString();
}

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
