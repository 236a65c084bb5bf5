/**
 * Terminal control sequences in untrusted text, handled one way everywhere: tool outputs have
 * them removed ({@link stripTerminalControls}), hosts printing text a model, a tool or a log
 * wrote show it without them ({@link terminalText}), and text a person approves is shown whole,
 * every control as a visible mark ({@link visibleText}).
 */

// CSI (ESC [ ... final; an unfinished one at the end too), the 8-bit CSI, OSC (ESC ] ... BEL or
// ESC \ or the end), DCS/SOS/PM/APC strings, and nF or other two-character ESC sequences.
const SEQUENCE_RE =
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[ -/]*[0-~]?/g;
// C0 controls but tab, newline and CR; DEL; C1 controls.
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Any character that may start what either function changes (a cheap test before replacing).
const ANY_CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// A lone CR lets later text overwrite what a terminal showed.
const LONE_CR_RE = /\r(?!\n)/g;
// What {@link terminalText} shows: the controls left after the sequences, a lone CR, and the
// characters that reorder or hide text (bidirectional overrides and isolates, marks, zero-width).
const SHOWN_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const ANY_SHOWN_RE = new RegExp(SHOWN_RE.source);

/** Removes terminal control sequences and controls; keeps `\t`, `\n` and `\r\n` (a lone CR becomes `\n`). */
export function stripTerminalControls(text: string): string {
  if (!ANY_CONTROL_RE.test(text)) return text;
  return text.replace(SEQUENCE_RE, '').replace(CONTROL_RE, '').replace(LONE_CR_RE, '\n');
}

function shown(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` as a terminal may show it: escape sequences (cursor moves, erases, titles, hyperlinks,
 * clipboard writes) removed; other controls, a lone CR and the characters that reorder or hide
 * text shown as visible marks (`^[`, `^M`, `<U+202E>`), so nothing in it can redraw the screen or
 * make a line read other than it is. Newlines and tabs stay; `\r\n` becomes `\n`.
 */
export function terminalText(text: string): string {
  if (!ANY_SHOWN_RE.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(SEQUENCE_RE, '').replace(SHOWN_RE, shown);
}

// Every control (ESC included), a lone CR, and the characters that reorder or hide text.
const EVERY_CONTROL_RE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const ANY_EVERY_CONTROL_RE = new RegExp(EVERY_CONTROL_RE.source);

/**
 * `text` with nothing removed: every control character (the ESC of a sequence too, so what a
 * sequence carries stays in sight), a lone CR and the characters that reorder or hide text shown
 * as visible marks (`^[`, `^G`, `<U+202E>`). For what a person approves (a command on a
 * confirmation card), where removing a sequence could hide what runs. Newlines and tabs stay;
 * `\r\n` becomes `\n`.
 */
export function visibleText(text: string): string {
  if (!ANY_EVERY_CONTROL_RE.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(EVERY_CONTROL_RE, shown);
}
