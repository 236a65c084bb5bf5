/** Words of a command line the CLI prints for the person to paste into a POSIX shell. */

/** Characters a shell word may hold unquoted. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `text` as one POSIX shell word: as it is when it holds only plain characters, else in single
 * quotes with each `'` written `'\''` (so spaces, `$`, backquotes and quotes stay literal).
 */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * `--flag value` for a shell, with `value` as one word; a value that starts with a dash is
 * joined with `=` (`--flag=-x`), as the CLI would read `--flag -x` as two flags.
 */
export function flagWords(flag: string, value: string): string {
  return value.startsWith('-') ? `${flag}=${shellWord(value)}` : `${flag} ${shellWord(value)}`;
}
