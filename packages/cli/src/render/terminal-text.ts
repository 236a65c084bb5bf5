/**
 * Text from the model, its tools or a log, made safe to print on a terminal. Escape sequences
 * (CSI — cursor moves, erases —, OSC — window titles, hyperlinks, the clipboard —, DCS and the
 * rest) are removed; other control characters, C1 controls and the characters that reorder or
 * hide text (bidirectional overrides and isolates, marks) are shown as visible escapes (`^[`,
 * `^M`, `<U+202E>`). So nothing an untrusted string holds can move the cursor, clear or retitle
 * the screen, overwrite a line already printed, or make a line read other than it is. Newlines
 * and tabs stay; `\r\n` becomes `\n`.
 */

// ESC followed by: CSI (parameters, intermediates, final), OSC / DCS / SOS / PM / APC strings up to
// BEL or ST (or the end of the text), or an nF or two-character escape.
const ESCAPES =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[ -/]*[0-~]?)/g;
// C0 controls but tab and newline, DEL, C1 controls, and the characters that reorder or hide text.
const VISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with escape sequences removed and other invisible controls shown (see the module comment). */
export function terminalText(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/.test(text))
    return text;
  return text.replace(/\r\n/g, '\n').replace(ESCAPES, '').replace(VISIBLE, visible);
}

/** `value` with every string in it (at any depth, keys too) passed through {@link terminalText}. */
export function terminalSafe<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any event nests: shown as a mark, never unchecked.
  if (depth > 32) return '[…]' as T;
  if (Array.isArray(value)) return value.map((v) => terminalSafe(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[terminalText(k)] = terminalSafe(v, depth + 1);
  return out as T;
}
