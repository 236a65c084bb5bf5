/** The list's rows packed as columns for the page: typed arrays it receives without a copy. */
import type { BuiltModel } from './model/build.js';
import { KINDS, STATUSES, type ListData } from './protocol.js';

/**
 * Packs the rows of `model`. The titles go as UTF-8 bytes, not one string: the page would spend tens
 * of milliseconds of its own thread copying in a string of millions of characters, where a
 * transferred buffer costs nothing, and it decodes only the rows in view.
 */
export function listColumns(model: BuiltModel): ListData {
  const n = model.rows.length;
  const kind = new Uint8Array(n);
  const status = new Uint8Array(n);
  const offsets = new Uint32Array(n + 1);
  const texts: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = model.rows[i]!;
    kind[i] = KINDS.indexOf(r.kind);
    status[i] = STATUSES.indexOf(r.status);
    const title = r.ignored ? `${r.title} [ignored by the fold]` : r.title;
    texts[i] = title;
  }
  // A UTF-16 unit never takes more than 3 bytes of UTF-8.
  const room = new Uint8Array(texts.reduce((sum, t) => sum + t.length, 0) * 3);
  const encoder = new TextEncoder();
  let at = 0;
  for (let i = 0; i < n; i++) {
    at += encoder.encodeInto(texts[i]!, room.subarray(at)).written;
    offsets[i + 1] = at;
  }
  const bytes = room.slice(0, at);
  return { count: n, kind, status, titles: bytes, offsets };
}
