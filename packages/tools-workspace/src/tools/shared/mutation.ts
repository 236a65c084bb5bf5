/**
 * What write-tier tools report about a change: the changed paths with digests and sizes,
 * a bounded preview and a bounded unified diff, never the whole before/after contents.
 */
import { changedSpan } from '../../diff/changed-span.js';
import { type UnifiedDiffOptions, unifiedDiff } from '../../diff/unified-diff.js';
import { uniformEol } from './line-ends.js';
import { byteLength, cutBytes, digestOf } from './text.js';

/** Largest diff text kept in a result, in bytes. */
export const MAX_DIFF_BYTES = 16 * 1024;
/** Largest preview kept in a result, in bytes. */
export const MAX_PREVIEW_BYTES = 2 * 1024;
/** Files larger than this (either side) are not diffed line by line. */
const MAX_DIFF_INPUT_BYTES = 4 * 1024 * 1024;

/** Why a diff under the size limit is omitted: its changes are too many and too far apart. */
const OMITTED_TOO_SCATTERED =
  'the changed lines are too many and too far apart to diff line by line within the bound on the work of the diff';

/** One changed file, for the mutation ledger. */
export interface FileChange {
  readonly path: string;
  readonly action: 'create' | 'modify' | 'delete';
  readonly digest_before: string | null;
  readonly digest_after: string | null;
  readonly size_before: number | null;
  readonly size_after: number | null;
  readonly additions: number;
  readonly deletions: number;
}

/** A change with its bounded diff. */
export interface DescribedChange {
  readonly change: FileChange;
  /** Unified diff, cut at {@link MAX_DIFF_BYTES}. */
  readonly diff: string;
  readonly diffTruncated: boolean;
}

/**
 * Describes the change of `path` from `before` (undefined: did not exist) to `after` (undefined:
 * deleted). `maxWork` bounds the line diff's work (tests lower it).
 */
export function describeChange(
  path: string,
  before: string | undefined,
  after: string | undefined,
  { maxWork }: Pick<UnifiedDiffOptions, 'maxWork'> = {},
): DescribedChange {
  const big =
    (before !== undefined && byteLength(before) > MAX_DIFF_INPUT_BYTES) ||
    (after !== undefined && byteLength(after) > MAX_DIFF_INPUT_BYTES);
  let diffText = '';
  let additions = 0;
  let deletions = 0;
  // A CR-only (old Mac) file is counted and diffed by its lines, as `read` shows them; digests and sizes stay the file's.
  const lines = (t: string): string => (uniformEol(before ?? after ?? '') === '\r' ? t.replace(/\r/g, '\n') : t);
  // The diff text is built only a little past the cut below: the counts stay whole.
  const textLimit = 2 * MAX_DIFF_BYTES;
  const d = big
    ? undefined
    : after === undefined
      ? unifiedDiff(path, before, '', { textLimit, maxWork })
      : unifiedDiff(path, before === undefined ? undefined : lines(before), lines(after), { textLimit, maxWork });
  if (d === undefined || d.omitted) {
    const why = d === undefined ? `file larger than ${MAX_DIFF_INPUT_BYTES} bytes` : OMITTED_TOO_SCATTERED;
    diffText = `[diff of ${path} omitted: ${why}; the line counts are of the span that changed]\n`;
    ({ additions, deletions } = d ?? changedSpan(lines(before ?? ''), lines(after ?? '')));
  } else if (after === undefined) {
    diffText = d.text.replace(`+++ b/${path}`, '+++ /dev/null');
    deletions = d.deletions;
  } else {
    diffText = d.text;
    additions = d.additions;
    deletions = d.deletions;
  }
  // A CR inside a line (not a CRLF line end) is shown as read shows it, never as a line break.
  const cut = cutBytes(diffText.includes('\r') ? diffText.replace(/\r(?!\n)/g, '^M') : diffText, MAX_DIFF_BYTES);
  return {
    change: {
      path,
      action: before === undefined ? 'create' : after === undefined ? 'delete' : 'modify',
      digest_before: before === undefined ? null : digestOf(before),
      digest_after: after === undefined ? null : digestOf(after),
      size_before: before === undefined ? null : byteLength(before),
      size_after: after === undefined ? null : byteLength(after),
      additions,
      deletions,
    },
    diff: cut.cut ? `${cut.text}\n[diff cut at ${MAX_DIFF_BYTES} bytes]\n` : cut.text,
    diffTruncated: cut.cut,
  };
}

/** A bounded preview of a text. */
export function preview(text: string): string {
  const cut = cutBytes(text, MAX_PREVIEW_BYTES);
  return cut.cut ? `${cut.text}…` : cut.text;
}

/** Metadata of a set of changes: `changes` (ledger), `diff` (joined, bounded), counts. */
export function changeMetadata(described: readonly DescribedChange[]): Record<string, unknown> {
  const joined = described.map((d) => d.diff).join('');
  const cut = cutBytes(joined, MAX_DIFF_BYTES);
  return {
    changed_paths: described.map((d) => d.change.path),
    changes: described.map((d) => d.change),
    diff: cut.text,
    diff_truncated: cut.cut || described.some((d) => d.diffTruncated),
    additions: described.reduce((n, d) => n + d.change.additions, 0),
    deletions: described.reduce((n, d) => n + d.change.deletions, 0),
  };
}
