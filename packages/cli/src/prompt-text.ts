/**
 * A prompt's text as it reached the CLI. Bytes that are not valid UTF-8 (a terminal or a file in
 * another encoding) arrive, from the command line or a terminal line, already replaced by U+FFFD:
 * the prompt would reach the model with those characters lost, so it is refused with the way out.
 */

/** Why `text` cannot be sent as a prompt (it holds U+FFFD), or `undefined` when it can. */
export function undecodedPrompt(text: string, where: string): string | undefined {
  const at = text.indexOf('\uFFFD');
  if (at < 0) return undefined;
  return `${where} holds U+FFFD at character ${at}, the mark of bytes that were not valid UTF-8 (a terminal or file in another encoding); set the terminal to UTF-8, or convert the text (iconv -f latin1 -t utf-8 file | a3s run -)`;
}
