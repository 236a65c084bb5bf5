/**
 * A file's line ends for a change. A file whose every line end is `\r\n` (Windows) or `\r` (old
 * Mac) is changed as the model sees it in `read`: in lines ending in `\n`, and written back with
 * its own line end, so a change can neither leave a bare `\n` or `\r` in it nor drop a line end.
 * Any other file (LF, mixed, none) is changed byte for byte as given.
 */

/** The single line end of a file that has only one kind, when it is not `\n`. */
export type UniformEol = '\r\n' | '\r';

/** A file's text in lines ending in `\n`, with the line end it is written back with. */
export interface LineEndView {
  /** The text with every line end as `\n` (the text as given when `eol` is `undefined`). */
  readonly text: string;
  /** `\r\n` or `\r` when every line end of the file is that one; `undefined`: kept as it is. */
  readonly eol: UniformEol | undefined;
}

/** The line end shared by every line of `text`, when it is `\r\n` or `\r` (and there is at least one). */
export function uniformEol(text: string): UniformEol | undefined {
  if (!text.includes('\r')) return undefined;
  if (!text.includes('\n')) return '\r';
  // Every `\r` is followed by `\n` and every `\n` follows a `\r`.
  return /\r(?!\n)|(?<!\r)\n/.test(text) ? undefined : '\r\n';
}

/** `text` in lines ending in `\n` (see {@link LineEndView}). */
export function lineEndView(text: string): LineEndView {
  const eol = uniformEol(text);
  if (eol === undefined) return { text, eol };
  return { text: eol === '\r' ? text.replace(/\r/g, '\n') : text.replace(/\r\n/g, '\n'), eol };
}

/** Text in lines ending in `\n` written back with `eol` (unchanged when `undefined`). */
export function withEol(text: string, eol: UniformEol | undefined): string {
  return eol === undefined ? text : text.replace(/\n/g, eol);
}

/**
 * A string the model gave for a file of line end `eol`, in the `\n` view: `\r\n` is a line end; in a
 * CR file so is a lone `\r`. In a CRLF file a lone `\r` is half of a line end: at the end of the
 * string it stands for the line end that follows (`trailingCr` true; it is dropped, the file's own
 * line end stays), anywhere else it is left in place (`loneCr` true) for the caller to refuse.
 */
export function viewString(
  s: string,
  eol: UniformEol,
): { readonly text: string; readonly trailingCr: boolean; readonly loneCr: boolean } {
  if (eol === '\r') return { text: s.replace(/\r\n?/g, '\n'), trailingCr: false, loneCr: false };
  let text = s.replace(/\r\n/g, '\n');
  const trailingCr = text.endsWith('\r');
  if (trailingCr) text = text.slice(0, -1);
  return { text, trailingCr, loneCr: text.includes('\r') };
}
