/** Messages between the page and the fold worker. */
import type { LogSummary } from '@a3s-code/effect';
import type { Detail } from './model/detail.js';
import type { RowFilter } from './model/filter.js';
import type { TimelineBar } from './model/timeline.js';
import type { Pricing, RowKind, RowStatus, TurnUsage } from './model/types.js';

/** Page → worker. */
export type Request =
  /** A log to read and fold: the file (or the served response) as a `Blob`, read by the worker, off the page's thread. */
  | { readonly type: 'load'; readonly name: string; readonly file: Blob; readonly pricing?: Pricing }
  | { readonly type: 'filter'; readonly id: number; readonly filter: RowFilter }
  | { readonly type: 'detail'; readonly seq: number };

/** How many turns the overview lists. */
export const TURN_ROWS = 1000;

/** The kinds and statuses, in the order their codes use. */
export const KINDS: readonly RowKind[] = [
  'run',
  'user',
  'turn',
  'question',
  'tool',
  'confirm',
  'answer',
  'budget',
  'compaction',
  'end',
  'unknown',
];
/** Status codes. */
export const STATUSES: readonly RowStatus[] = ['ok', 'info', 'warn', 'error'];

/** The rows as columns (cheap to send and to keep): all titles as UTF-8 in one buffer, cut at `offsets`. */
export interface ListData {
  readonly count: number;
  readonly kind: Uint8Array;
  readonly status: Uint8Array;
  readonly titles: Uint8Array;
  /** Title `i` is the UTF-8 text of `titles.subarray(offsets[i], offsets[i + 1])`. */
  readonly offsets: Uint32Array;
}

/** What the header and the timeline show. */
export interface Overview {
  readonly name: string;
  readonly summary: LogSummary;
  /** The first turns' usage (at most {@link TURN_ROWS}). */
  readonly turns: readonly TurnUsage[];
  readonly turnCount: number;
  readonly bars: readonly TimelineBar[];
  readonly cost: number | null;
  readonly unpriced: readonly string[];
  readonly toolNames: readonly string[];
  readonly torn: string | null;
  readonly foldMs: number;
}

/** Worker → page. */
export type Reply =
  | { readonly type: 'loaded'; readonly overview: Overview; readonly list: ListData }
  /** `unread`: the file could not be read at all, and `message` says so in full. */
  | { readonly type: 'error'; readonly message: string; readonly unread?: true }
  | { readonly type: 'filtered'; readonly id: number; readonly indices: Int32Array }
  | { readonly type: 'detail'; readonly seq: number; readonly detail: Detail | null };
