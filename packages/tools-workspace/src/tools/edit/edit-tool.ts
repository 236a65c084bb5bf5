/**
 * `edit`: fixed-string replacement. Not-found and ambiguous matches fail with the
 * candidate lines; `expected_replacements` and `max_replacements` bound the change; `dry_run`
 * returns exactly the metadata a real write would, writes nothing and is scheduled read-only.
 * A file whose line ends are all CRLF (or all CR) keeps them whatever line ends the strings use.
 * In any other file, `\n` and `\r\n` match each other, and each replaced line keeps the line end it had.
 */
import { A3sError, defineTool, InvalidToolArgsError, type ToolContext, type ToolResult } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { changeMetadata, describeChange } from '../shared/mutation.js';
import { failed, filesOf, guard, ok } from '../shared/results.js';
import { withFileLocks } from '../shared/file-lock.js';
import { shownLine, shownPath } from '../shared/text.js';
import { lineEndView, viewString, withEol } from '../shared/line-ends.js';
import { assertUnchanged, decodeEditable, readBytes } from '../shared/text-file.js';
import { assertWholeCharacters, assertWritableArg } from '../shared/writable.js';
import {
  closestLines,
  hintScope,
  linesAt,
  lineTextAt,
  MAX_HINT_CHARS,
  nearMatch,
  occurrences,
} from './edit-candidates.js';
import { type LineEndMatch, lineEndMatches, looseLineEnds, replacementFor } from './edit-line-end-match.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** Why an edit was not applied. */
export class EditMatchError extends A3sError {
  constructor(
    code: 'EDIT_NOT_FOUND' | 'EDIT_AMBIGUOUS' | 'EDIT_COUNT_MISMATCH' | 'EDIT_TOO_MANY',
    message: string,
    details: Record<string, unknown>,
  ) {
    super(code, message, { details });
  }
}

const editInput = (z: Zod) =>
  z.strictObject({
    file_path: z.string().min(1).describe('the file to edit'),
    old_string: z.string().describe('exact text to replace (empty only to fill a missing or empty file)'),
    new_string: z.string().describe('the replacement text'),
    replace_all: z.boolean().optional().describe('replace every occurrence (default false: old_string must be unique)'),
    dry_run: z.boolean().optional().describe('compute the diff and counts without writing'),
    expected_replacements: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('fail unless exactly this many replacements would be made'),
    max_replacements: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('refuse an edit that would make more replacements than this'),
  });

/** Arguments of `edit`. */
export type EditArgs = z.output<ReturnType<typeof editInput>>;

/** Most line numbers of matches given in a result or an error (the first ones; the count is given whole). */
const MAX_MATCH_LINES = 1000;

/** The `edit` tool. */
export const editTool = defineTool({
  name: 'edit',
  description: `Replace an exact string in a file. old_string must match the file exactly (indentation included) and be unique unless replace_all is true or expected_replacements says how many occurrences to replace. Use dry_run: true to preview the same diff and counts a real edit would produce without writing; then pass the previewed count as expected_replacements, and optionally max_replacements as an upper bound. Line ends are matched as read shows lines, without them: \\n and \\r\\n in old_string match either line end in the file, and each replaced line keeps the file's line end. When the string is not found or is ambiguous, the error lists the closest or matching lines.`,
  inputJsonSchema: toolJsonSchemas.edit,
  input: editInput,
  plainInput: true,
  refine: (v) =>
    v.old_string === v.new_string ? [{ path: ['new_string'], message: 'must differ from old_string' }] : [],
  tier: 'write',
  requires: ['fs.read', 'fs.write'],
  capabilities: {
    readOnly: false,
    idempotent: false,
    resumable: false,
    cancelSafe: true,
    paginated: false,
    maxParallelism: 1,
    outputType: 'diff',
  },
  capabilitiesFor: (args) =>
    args.dry_run === true ? { readOnly: true, idempotent: true, resumable: true, maxParallelism: 16 } : {},
  execute: (args, ctx) =>
    guard(() => withFileLocks(ctx, args.dry_run === true ? [] : [args.file_path], () => editFile(args, ctx))),
});

/** The edit itself, holding the file's lock when it writes. */
async function editFile(args: EditArgs, ctx: ToolContext): Promise<ToolResult> {
  const fs = filesOf(ctx, args.dry_run ? 'fs.read' : 'fs.write', 'edit');
  const path = args.file_path;
  if (args.dry_run !== true) assertWritableArg(ctx, path, 'file_path');
  assertWholeCharacters('edit', 'old_string', args.old_string);
  assertWholeCharacters('edit', 'new_string', args.new_string);
  const bytes = await readBytes(fs, path, ctx.signal);
  const decoded = bytes === undefined ? undefined : decodeEditable(path, bytes, 'edit');
  // A file of CRLF (or CR) line ends only is edited in lines ending in \n and keeps its line ends.
  const view = decoded === undefined ? undefined : lineEndView(decoded.text);
  const before = view?.text;
  const eol = view?.eol;
  const bom = decoded?.bom ?? '';
  let after: string;
  let replacements: number;
  let lines: number[] = [];
  if (args.old_string === '') {
    if (before !== undefined && before !== '') {
      return failed(
        new EditMatchError(
          'EDIT_NOT_FOUND',
          `${path}: old_string is empty but the file is not; give the text to replace`,
          { path },
        ),
      );
    }
    after = args.new_string;
    replacements = 1;
  } else {
    if (before === undefined) return failed(new EditMatchError('EDIT_NOT_FOUND', `${path}: no such file`, { path }));
    let oldS = args.old_string;
    let newS = args.new_string;
    // The file's byte-order mark stays in front of it whatever the edit: a mark given in front of
    // the strings names the start of the text and is not itself searched for.
    if (bom !== '' && oldS.startsWith(bom) && oldS.length > 1) {
      oldS = oldS.slice(1);
      if (newS.startsWith(bom)) newS = newS.slice(1);
    }
    if (eol !== undefined) {
      const o = viewString(oldS, eol);
      const n = viewString(newS, eol);
      if (o.loneCr || n.loneCr || (n.trailingCr && !o.trailingCr))
        throw new InvalidToolArgsError('edit', [
          {
            field: `args.${o.loneCr ? 'old_string' : 'new_string'}`,
            message: `has a carriage return (\\r) that is not part of a line end, but every line of ${path} ends in \\r\\n, so what it stands for is unclear and nothing was written; give line breaks as \\n (the file keeps its \\r\\n)`,
          },
        ]);
      // A string ending in the \r of a line end means the text up to that line end, which stays.
      oldS = o.trailingCr ? `${o.text}\n` : o.text;
      newS = o.trailingCr ? `${n.text}\n` : n.text;
      if (oldS === newS)
        throw new InvalidToolArgsError('edit', [
          {
            field: 'args.new_string',
            message: `differs from old_string only in line ends, and ${path} keeps its own line ends, so the edit would change nothing`,
          },
        ]);
    }
    // Line ends not uniform (or the strings' unlike the file's): \n and \r\n match each other.
    const loose = eol === undefined && looseLineEnds(before, oldS) ? lineEndMatches(before, oldS) : undefined;
    const hits = loose === undefined ? occurrences(before, oldS) : loose.map((m) => m.at);
    if (hits.length === 0) return failed(notFound(path, before, args.old_string));
    lines = linesAt(before, hits.slice(0, MAX_MATCH_LINES));
    const all =
      args.replace_all === true || (args.expected_replacements !== undefined && args.expected_replacements > 1);
    if (!all && hits.length > 1) {
      // Matches sharing a line are told apart by their column.
      const shared = (n: number | undefined) => lines.filter((l) => l === n).length > 1;
      const shown = hits
        .slice(0, 10)
        .map((at, k) => {
          const col = shared(lines[k]) ? ` (column ${at - before.lastIndexOf('\n', at - 1)})` : '';
          return `  line ${lines[k]}${col}: ${shownLine(lineTextAt(before, at).slice(0, 200))}`;
        })
        .join('\n');
      const more = hits.length > 10 ? `\n  … and ${hits.length - 10} more` : '';
      return failed(
        new EditMatchError(
          'EDIT_AMBIGUOUS',
          `${path}: old_string occurs ${hits.length} times; add surrounding context to make it unique, or set replace_all. Matches:\n${shown}${more}`,
          { path, occurrences: hits.length, lines },
        ),
      );
    }
    replacements = all ? hits.length : 1;
    if (loose !== undefined) {
      const replaced = replaceLoose(path, before, loose.slice(0, replacements), oldS, newS, lines);
      if (replaced instanceof EditMatchError) return failed(replaced);
      after = replaced;
    } else
      after = all
        ? before.split(oldS).join(newS)
        : before.slice(0, hits[0]) + newS + before.slice(hits[0]! + oldS.length);
  }
  if (args.expected_replacements !== undefined && replacements !== args.expected_replacements) {
    return failed(
      new EditMatchError(
        'EDIT_COUNT_MISMATCH',
        `${path}: the edit would make ${replacements} replacement(s), expected_replacements is ${args.expected_replacements}; nothing written`,
        {
          path,
          replacements,
          expected: args.expected_replacements,
        },
      ),
    );
  }
  if (args.max_replacements !== undefined && replacements > args.max_replacements) {
    return failed(
      new EditMatchError(
        'EDIT_TOO_MANY',
        `${path}: the edit would make ${replacements} replacements, more than max_replacements ${args.max_replacements}; nothing written`,
        {
          path,
          replacements,
          max: args.max_replacements,
        },
      ),
    );
  }
  const dry = args.dry_run === true;
  if (!dry) {
    await assertUnchanged(fs, path, bytes, ctx.signal);
    await fs.writeFile(path, bom + withEol(after, eol), { signal: ctx.signal });
  }
  const described = describeChange(
    path,
    decoded === undefined ? undefined : bom + decoded.text,
    bom + withEol(after, eol),
  );
  const summary = `${dry ? 'dry run: would edit' : 'edited'} ${shownPath(path)}: ${replacements} replacement(s), +${described.change.additions} -${described.change.deletions} lines`;
  return ok(`${summary}\n${described.diff}`, {
    path,
    dry_run: dry,
    applied: !dry,
    replacements,
    match_lines: lines,
    ...(replacements > lines.length ? { match_lines_truncated: true } : {}),
    ...changeMetadata([described]),
  });
}

/**
 * `EDIT_NOT_FOUND` for an `old_string` the file does not hold, with the lines most like it and a
 * near-match if there is one; in a file past {@link MAX_HINT_CHARS}, found among its first lines only.
 */
function notFound(path: string, before: string, oldString: string): EditMatchError {
  const scope = hintScope(before);
  const candidates = closestLines(scope.text, oldString);
  const hint =
    candidates.length === 0
      ? 'no similar lines'
      : candidates.map((c) => `  line ${c.line}: ${shownLine(c.text)}`).join('\n');
  // A near-match is only named, never applied: the model must send the file's exact text.
  const near = nearMatch(scope.text, oldString);
  const nearText =
    near === undefined
      ? ''
      : ` The file has it at line ${near.line} differing only in ${near.detail}; nothing was changed.`;
  const among =
    scope.firstLines === undefined
      ? ''
      : ` among its first ${scope.firstLines} lines (the file is larger than ${MAX_HINT_CHARS} characters, so only those were compared; grep finds text in the rest)`;
  return new EditMatchError(
    'EDIT_NOT_FOUND',
    `${path}: old_string not found.${nearText} Closest lines${among}:\n${hint}`,
    {
      path,
      candidates,
      ...(near === undefined ? {} : { near }),
      ...(scope.firstLines === undefined ? {} : { hints_first_lines: scope.firstLines }),
    },
  );
}

/**
 * `before` with each match replaced, every replaced line keeping its own line end; `EDIT_AMBIGUOUS`
 * when `new_string` adds a line inside a match whose line ends differ.
 */
function replaceLoose(
  path: string,
  before: string,
  matches: readonly LineEndMatch[],
  oldS: string,
  newS: string,
  lines: readonly number[],
): string | EditMatchError {
  let out = '';
  let from = 0;
  for (const [k, m] of matches.entries()) {
    const text = replacementFor(before, m, oldS, newS);
    if (text === undefined)
      return new EditMatchError(
        'EDIT_AMBIGUOUS',
        `${path}: old_string matches at line ${lines[k] ?? '?'} where the line ends differ (${m.ends.map((e) => JSON.stringify(e)).join(', ')}), and new_string has more lines, so which line end each new line gets is unclear; nothing was written. Give old_string and new_string with the file's exact line ends (\\r\\n where it has them), or keep the number of lines`,
        { path, line: lines[k], line_ends: m.ends },
      );
    out += before.slice(from, m.at) + text;
    from = m.at + m.length;
  }
  return out + before.slice(from);
}
