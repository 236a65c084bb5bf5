/** Filtering rows: by tool, by status, by kind and by text. */
import type { RowKind, RowStatus, ViewModel } from './types.js';

/** A row filter; empty fields match everything. */
export interface RowFilter {
  /** Case-insensitive text to find in the row's title and content. */
  readonly text?: string;
  /** Only rows about this tool. */
  readonly tool?: string;
  /** `problems` means `warn` or `error`. */
  readonly status?: RowStatus | 'problems' | '';
  /** Only rows of these kinds. */
  readonly kinds?: readonly RowKind[];
}

/** The indices (into `model.rows`) of the rows that match `filter`, in order. */
export function filterRows(model: ViewModel & { readonly search: readonly string[] }, filter: RowFilter): Int32Array {
  const text = (filter.text ?? '').trim().toLowerCase();
  const tool = filter.tool ?? '';
  const status = filter.status ?? '';
  const kinds = filter.kinds && filter.kinds.length > 0 ? new Set(filter.kinds) : null;
  const out = new Int32Array(model.rows.length);
  let n = 0;
  for (let i = 0; i < model.rows.length; i++) {
    const r = model.rows[i]!;
    if (tool !== '' && r.tool !== tool) continue;
    if (status === 'problems' ? r.status !== 'warn' && r.status !== 'error' : status !== '' && r.status !== status)
      continue;
    if (kinds && !kinds.has(r.kind)) continue;
    if (text !== '' && !model.search[i]!.includes(text)) continue;
    out[n++] = i;
  }
  return out.slice(0, n);
}
