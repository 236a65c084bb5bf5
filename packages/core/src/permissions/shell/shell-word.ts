/**
 * Words of a shell command after quote removal. A word's text is known statically except where it
 * holds an expansion (`$X`, `$(…)`, an unquoted glob or brace list): each such part is a *hole*,
 * written as the private-use character `HOLE` inside the text. Subjects keep holes, so a rule
 * matcher can ask whether some value of the hole (deny) or every value (allow) fits a pattern.
 */

/** Stands for a part of a word whose value is only known at run time. */
export const HOLE = '\uE000';

/** The subject of a command whose name cannot be known statically: it may be any command. */
export const OPAQUE = HOLE;

/** One word of a simple command. */
export interface ShellWord {
  /** The word after quote removal; every expansion is a `HOLE`. */
  readonly text: string;
  /** The word as written in the command. */
  readonly raw: string;
  /** True when some part was quoted or escaped (a quoted `if` is not a keyword). */
  readonly quoted: boolean;
  /** True when an unquoted expansion may split the word into several words at run time. */
  readonly splits: boolean;
  /**
   * True for the `{}` of `find -exec`: a path find found, which starts with one of its starting
   * points (`./x`), so never with `-` (it cannot be read as an option).
   */
  readonly foundPath?: boolean;
}

/** True when `word` is fully known statically. */
export function isStatic(word: ShellWord): boolean {
  return !word.text.includes(HOLE);
}

/** True when `word` is an unquoted literal equal to `keyword` (reserved words, `{`, `}`, `!`). */
export function isKeyword(word: ShellWord, keyword: string): boolean {
  return !word.quoted && word.text === keyword;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

/** The variable name when `word` is an assignment (`X=1`, `A[0]=x`, `P+=:/bin`), else undefined. */
export function assignmentName(word: ShellWord): string | undefined {
  const m = ASSIGNMENT.exec(word.raw);
  return m === null ? undefined : (/^[A-Za-z_][A-Za-z0-9_]*/.exec(m[0]) as RegExpExecArray)[0];
}

/** The last path segment of a command name (`/bin/rm` → `rm`). */
export function basename(name: string): string {
  const trimmed = name.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut === -1 ? trimmed : trimmed.slice(cut + 1);
}

/** Joins word texts into one subject string, one space between words. */
export function joinWords(words: readonly ShellWord[]): string {
  return words.map((w) => w.text).join(' ');
}

/** A subject for display: each hole becomes `…`. */
export function renderSubject(subject: string): string {
  return subject.replaceAll(HOLE, '…');
}

/** Builds a word from already-unquoted text (used for the `{}` of `find -exec` and xargs input). */
export function syntheticWord(text: string): ShellWord {
  return { text, raw: text, quoted: true, splits: false };
}

// Names a process started later may see the value of: the environment's, by custom written with a
// capital letter, and the proxy settings written in lower case.
const ENVIRONMENT_LIKE = /[A-Z]|^(?:http|https|ftp|all|no)_proxy$/;

/** True when a shell variable `name` may be one the commands after it read from their environment (`PATH`, `HOME`). */
export function isEnvironmentLike(name: string): boolean {
  return ENVIRONMENT_LIKE.test(name);
}

/** A word standing for an assignment whose value is not known statically (`PATH=…`). */
export function assignmentWord(name: string): ShellWord {
  return { text: `${name}=${HOLE}`, raw: `${name}=`, quoted: false, splits: false };
}
