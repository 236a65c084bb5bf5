/**
 * A strict unified-diff parser: `---`/`+++` file headers (with `a/`/`b/` prefixes or
 * `/dev/null`), `@@ -l,s +l,s @@` hunks whose line counts must match their bodies, and the
 * `\ No newline at end of file` marker. `diff --git`, `index` and mode lines are accepted and
 * skipped. Anything else is an error naming the patch line.
 */
import { InvalidToolArgsError } from '@a3s-code/core';

/** One hunk line: `' '` context, `-` removed, `+` added; `eol` false after a no-newline marker. */
export interface HunkLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
  eol: boolean;
}

/** One hunk. Line numbers are 1-based as in the header. */
export interface Hunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: HunkLine[];
  /** 1-based line of the `@@` header in the patch. */
  readonly at: number;
}

/** The patch of one file. `oldPath` is null for a creation, `newPath` null for a deletion. */
export interface FilePatch {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunks: Hunk[];
}

function fail(line: number, problem: string): never {
  throw new InvalidToolArgsError('patch', [
    {
      field: 'args.patch',
      message: `line ${line}: ${problem}; expected a unified diff (--- a/file, +++ b/file, @@ -l,s +l,s @@ hunks)`,
    },
  ]);
}

function headerPath(raw: string, prefix: 'a/' | 'b/'): string | null {
  let p = raw.split('\t')[0]!.trim();
  if (p === '/dev/null') return null;
  if (p.startsWith('"') && p.endsWith('"')) p = JSON.parse(p) as string;
  return p.startsWith(prefix) ? p.slice(2) : p;
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified diff of one or more files. Throws `INVALID_TOOL_ARGS` on `args.patch`. */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.startsWith('--- ')) {
      const next = lines[i + 1]?.replace(/\r$/, '');
      if (next === undefined || !next.startsWith('+++ '))
        fail(i + 2, "a '---' header must be followed by a '+++' header");
      const oldPath = headerPath(line.slice(4), 'a/');
      const newPath = headerPath(next.slice(4), 'b/');
      if (oldPath === null && newPath === null) fail(i + 1, 'both sides are /dev/null');
      const file: FilePatch = { oldPath, newPath, hunks: [] };
      i += 2;
      while (i < lines.length && lines[i]!.startsWith('@@')) {
        const m = HUNK_RE.exec(lines[i]!);
        if (!m) fail(i + 1, `malformed hunk header ${JSON.stringify(lines[i]!.slice(0, 80))}`);
        const hunk: Hunk = {
          oldStart: Number(m[1]),
          oldCount: m[2] === undefined ? 1 : Number(m[2]),
          newStart: Number(m[3]),
          newCount: m[4] === undefined ? 1 : Number(m[4]),
          lines: [],
          at: i + 1,
        };
        i++;
        let olds = 0;
        let news = 0;
        while (olds < hunk.oldCount || news < hunk.newCount || lines[i]?.startsWith('\\')) {
          const body = lines[i];
          if (body === undefined)
            fail(i, `hunk at line ${hunk.at} ends early: expected ${hunk.oldCount} old and ${hunk.newCount} new lines`);
          if (body.startsWith('\\')) {
            const last = hunk.lines[hunk.lines.length - 1];
            if (!last) fail(i + 1, "'\\ No newline at end of file' before any hunk line");
            last.eol = false;
            i++;
            continue;
          }
          const op = body === '' ? ' ' : body[0];
          if (op !== ' ' && op !== '-' && op !== '+')
            fail(i + 1, `unexpected hunk line ${JSON.stringify(body.slice(0, 80))}`);
          if (op !== '+') olds++;
          if (op !== '-') news++;
          if (olds > hunk.oldCount || news > hunk.newCount)
            fail(i + 1, `hunk at line ${hunk.at} has more lines than its header declares`);
          hunk.lines.push({ op, text: body.slice(1).replace(/\r$/, ''), eol: true });
          i++;
        }
        file.hunks.push(hunk);
      }
      if (file.hunks.length === 0 && !(file.oldPath !== null && file.newPath === null))
        fail(i + 1, `no hunks for ${file.newPath ?? file.oldPath}`);
      files.push(file);
      continue;
    }
    if (
      line === '' ||
      /^(diff --git |index |new file mode |deleted file mode |old mode |new mode |similarity index |Binary files )/.test(
        line,
      )
    ) {
      i++;
      continue;
    }
    if (files.length === 0 && !line.startsWith('@@')) {
      i++; // free text before the first file header (a commit message) is allowed
      continue;
    }
    fail(i + 1, `unexpected line ${JSON.stringify(line.slice(0, 80))}`);
  }
  if (files.length === 0) fail(1, 'no file headers found');
  return files;
}
