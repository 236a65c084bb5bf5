/**
 * Withholding a server's text while its project reads a hidden file (see `exposure.ts`): a
 * diagnostic keeps its file, line, severity and code and loses its message (unless it is a syntax
 * error, computed from the file's own text); a project checker's problem line keeps its location,
 * severity and code; every other checker line goes.
 */
import type { LspDiagnostic } from './protocol.js';

/** What a withheld message reads. */
export const WITHHELD = '(message withheld)';

/** The note telling why messages were withheld. */
export function withheldNote(why: string, what = 'messages'): string {
  return `(${what} withheld: ${why}, and their text could quote it)`;
}

/**
 * The note for a file whose diagnostics are not shown at all (but for syntax errors): its server
 * read a file outside the workspace (`outside`) or a hidden file it could not be kept from (`why`
 * names it or the rule), so which problems it reports, and whether any, could depend on that
 * file's content.
 */
export function blindNote(path: string, why: string, outside = false): string {
  return outside
    ? `Diagnostics not shown for ${path} (but for syntax errors): ${why}, which this session may not read, so whether the server reports a problem could reveal that file's content.`
    : `Diagnostics not shown for ${path} (but for syntax errors): ${why}, and this workspace cannot keep that file from the server, so whether it reports a problem could reveal the file's content.`;
}

/** The diagnostics with every message that could quote another file withheld. */
export function withholdMessages(list: readonly LspDiagnostic[]): LspDiagnostic[] {
  return list.map((d) => (d.syntactic === true ? d : { ...d, message: WITHHELD }));
}

// `src/a.ts(2,14): error TS2322: …` and `error TS5023: …` (tsc).
const TSC_PROBLEM = /^((?:\S.*?\(\d+,\d+\): )?(?:error|warning|message) TS\d+):/;
// `  /abs/src/a.py:4:10 - error: …` (pyright).
const PYRIGHT_PROBLEM = /^(\s+\S.*?:\d+:\d+ - (?:error|warning|information))\b/;
// `/abs/src/a.py` (pyright's heading of a file's problems).
const PYRIGHT_FILE = /^\S+\.pyi?$/;
// `1 error, 0 warnings, 0 informations`
const PYRIGHT_SUMMARY = /^\d+ errors?, \d+ warnings?, \d+ informations? ?$/;

/** A project checker's output with every message withheld; lines of no known form go. */
export function withholdCheckerOutput(output: string): { text: string; dropped: number } {
  const kept: string[] = [];
  let dropped = 0;
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    const problem = TSC_PROBLEM.exec(line) ?? PYRIGHT_PROBLEM.exec(line);
    if (problem !== null) kept.push(`${problem[1]}: ${WITHHELD}`);
    else if (PYRIGHT_FILE.test(line) || PYRIGHT_SUMMARY.test(line)) kept.push(line);
    else dropped++;
  }
  return { text: kept.join('\n'), dropped };
}
