/**
 * A strict unified-diff parser: `---`/`+++` file headers (with `a/`/`b/` prefixes or
 * `/dev/null`), `@@ -l,s +l,s @@` hunks whose line counts must match their bodies, and the
 * `\ No newline at end of file` marker. A `diff --git` section with `rename from`/`rename to`
 * and no hunks is a pure rename; its `new mode` / `new file mode` line (100644 or 100755) sets or
 * clears the executable bits, with or without hunks; `index` and similarity lines are skipped.
 * Git's quoted names (`"caf\303\251.txt"`) are unquoted. Anything else is an error naming the
 * patch line.
 */
import { InvalidToolArgsError, unquoteDiffPath } from '@a3s-code/core';

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
  /** From a git mode line: `true` 100755, `false` 100644; absent: the mode is kept. */
  readonly executable?: boolean;
}

function fail(line: number, problem: string): never {
  throw new InvalidToolArgsError('patch', [
    {
      field: 'args.patch',
      message: `line ${line}: ${problem}; expected a unified diff (--- a/file, +++ b/file, @@ -l,s +l,s @@ hunks)`,
    },
  ]);
}

/** A name as git writes it (bare, or quoted with C escapes), unquoted as the permission rules read it. */
function unquote(raw: string, line: number): string {
  const p = unquoteDiffPath(raw);
  if (p === undefined) fail(line, `quoted name ${raw.slice(0, 80)} ends inside an escape`);
  return p;
}

function headerPath(raw: string, prefix: 'a/' | 'b/', line: number): string | null {
  const field = raw.split('\t')[0]!.trim();
  if (field === '/dev/null') return null;
  const p = unquote(field, line);
  return p.startsWith(prefix) ? p.slice(2) : p;
}

/** A `diff --git` section's header lines, while its `---` header (if any) is not read yet. */
interface GitSection {
  readonly at: number;
  /** The `diff --git` line's rest (`a/x b/x`), for the name of a change of mode alone. */
  readonly names: string;
  from?: string;
  to?: string;
  executable?: boolean;
}

/** The one path a `diff --git a/x b/x` line names, when both sides are the same file. */
function sameName(names: string, line: number): string | undefined {
  if (names.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*"|\S.*)$/.exec(names);
    if (!m) return undefined;
    const a = unquote(m[1]!, line);
    const b = unquote(m[2]!, line);
    return a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? a.slice(2) : undefined;
  }
  if (names.length % 2 === 0) return undefined;
  const mid = (names.length - 1) / 2;
  const a = names.slice(0, mid);
  const b = names.slice(mid + 1);
  return names[mid] === ' ' && a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2)
    ? a.slice(2)
    : undefined;
}

const MODE_RE = /^(old mode|new mode|new file mode|deleted file mode) (\d+)\s*$/;

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified diff of one or more files. Throws `INVALID_TOOL_ARGS` on `args.patch`. */
export function parsePatch(text: string): FilePatch[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const opening = lines.findIndex((l) => l.trim() !== '');
  if (opening >= 0 && /^\*\*\* Begin Patch\s*$/.test(lines[opening]!.trim()))
    fail(
      opening + 1,
      "'*** Begin Patch' starts the apply_patch format ('*** Update File:', '*** Add File:'), which this tool does not read; send the same change as a unified diff",
    );
  const files: FilePatch[] = [];
  let i = 0;
  let git: GitSection | undefined;
  /**
   * Ends a `diff --git` section: without a `---` header, its rename lines make a pure rename and its
   * mode line alone a change of mode.
   */
  const endSection = (): void => {
    const mode = git?.executable === undefined ? {} : { executable: git.executable };
    if (git && (git.from !== undefined || git.to !== undefined)) {
      if (git.from === undefined || git.to === undefined)
        fail(git.at, "a git rename needs both 'rename from' and 'rename to' lines");
      files.push({ oldPath: git.from, newPath: git.to, hunks: [], ...mode });
    } else if (git && git.executable !== undefined) {
      const path = sameName(git.names, git.at);
      if (path === undefined)
        fail(
          git.at,
          "the file of this change of mode is unclear: the 'diff --git' line must name it as a/<path> b/<path>",
        );
      files.push({ oldPath: path, newPath: path, hunks: [], ...mode });
    }
    git = undefined;
  };
  while (i < lines.length) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.startsWith('diff --git ')) {
      endSection();
      git = { at: i + 1, names: line.slice('diff --git '.length) };
      i++;
      continue;
    }
    const mode = MODE_RE.exec(line);
    if (mode && !git && files.length > 0)
      fail(i + 1, `'${mode[1]}' lines belong to a 'diff --git' section, after its 'diff --git a/<path> b/<path>' line`);
    if (/^(Binary files .* differ|GIT binary patch)\s*$/.test(line))
      fail(
        i + 1,
        'a binary change cannot be applied by this tool (it changes text files only), so no file was changed; write the file with a command instead',
      );
    if (mode && git) {
      const kind = mode[1]!;
      const bits = mode[2]!;
      if (bits !== '100644' && bits !== '100755')
        fail(
          i + 1,
          `'${kind} ${bits}' is not a regular file's mode (symbolic links 120000 and submodules 160000 cannot be made by this tool); allowed: 100644 or 100755`,
        );
      if (kind === 'new mode' || kind === 'new file mode') git.executable = bits === '100755';
      i++;
      continue;
    }
    const rename = /^rename (from|to) (.+)$/.exec(line);
    if (rename && git) {
      git[rename[1] as 'from' | 'to'] = unquote(rename[2]!, i + 1);
      i++;
      continue;
    }
    if (/^copy (from|to) /.test(line) && git)
      fail(
        i + 1,
        "git copies ('copy from'/'copy to') are not supported; create the copy with a '--- /dev/null' / '+++ b/<new path>' section holding its lines",
      );
    if (line.startsWith('--- ')) {
      const mode = git?.executable === undefined ? {} : { executable: git.executable };
      git = undefined; // the ---/+++ headers name the files of this section, renamed or not
      const next = lines[i + 1]?.replace(/\r$/, '');
      if (next === undefined || !next.startsWith('+++ '))
        fail(i + 2, "a '---' header must be followed by a '+++' header");
      const oldPath = headerPath(line.slice(4), 'a/', i + 1);
      const newPath = headerPath(next.slice(4), 'b/', i + 2);
      if (oldPath === null && newPath === null) fail(i + 1, 'both sides are /dev/null');
      if (newPath === null && mode.executable !== undefined) fail(i + 1, 'a deleted file cannot get a new mode');
      const file: FilePatch = { oldPath, newPath, hunks: [], ...mode };
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
    if (line === '' || /^(index |similarity index |dissimilarity index )/.test(line)) {
      i++;
      continue;
    }
    if (files.length === 0 && !line.startsWith('@@')) {
      i++; // free text before the first file header (a commit message) is allowed
      continue;
    }
    fail(i + 1, `unexpected line ${JSON.stringify(line.slice(0, 80))}`);
  }
  endSection();
  if (files.length === 0) fail(1, 'no file headers found');
  return files;
}
