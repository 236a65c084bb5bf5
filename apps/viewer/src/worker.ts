/// <reference lib="webworker" />
/** The fold worker: parses and folds the log off the page's thread, then answers filters and details. */
import { parseLog, type Fact } from '@a3s-code/effect';
import { buildModel, type BuiltModel } from './model/build.js';
import { MAX_LOG_TEXT, tooLargeMessage } from './model/log-size.js';
import { detailOf } from './model/detail.js';
import { filterRows } from './model/filter.js';
import { timelineBars } from './model/timeline.js';
import { KINDS, STATUSES, TURN_ROWS, type Reply, type Request } from './protocol.js';

declare const self: DedicatedWorkerGlobalScope;

let facts: Fact[] = [];
let model: BuiltModel | null = null;

function post(reply: Reply, transfer: Transferable[] = []): void {
  self.postMessage(reply, transfer);
}

/**
 * The log's text. A log too large for one string fails with its size and the limit: the browser
 * would otherwise decode it to an empty string, shown as a log of 0 facts.
 */
function decodeLog(bytes: ArrayBuffer): string {
  const tooLarge = () => new Error(tooLargeMessage(bytes.byteLength));
  if (bytes.byteLength > MAX_LOG_TEXT) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder().decode(bytes);
  } catch (e) {
    if (e instanceof RangeError) throw tooLarge();
    throw e;
  }
  return text;
}

function load(req: Extract<Request, { type: 'load' }>): void {
  const started = performance.now();
  const text = decodeLog(req.bytes);
  const parsed = parseLog(text);
  facts = parsed.facts;
  model = buildModel(facts, req.pricing ? { pricing: req.pricing } : {});
  const n = model.rows.length;
  const kind = new Uint8Array(n);
  const status = new Uint8Array(n);
  const offsets = new Uint32Array(n + 1);
  const titles: string[] = new Array(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const r = model.rows[i]!;
    kind[i] = KINDS.indexOf(r.kind);
    status[i] = STATUSES.indexOf(r.status);
    const title = r.ignored ? `${r.title} [ignored by the fold]` : r.title;
    titles[i] = title;
    at += title.length;
    offsets[i + 1] = at;
  }
  post(
    {
      type: 'loaded',
      overview: {
        name: req.name,
        // The overview shows the timeline as bars: the full phase list would only cost the page time.
        summary: { ...model.summary, phase_timeline: [] },
        turns: model.turns.slice(0, TURN_ROWS),
        turnCount: model.turns.length,
        bars: timelineBars(model.timeline),
        cost: model.cost,
        unpriced: model.unpriced,
        toolNames: model.toolNames,
        torn: parsed.torn ? `line ${parsed.torn.line}: ${parsed.torn.reason}` : null,
        foldMs: Math.round(performance.now() - started),
      },
      list: { count: n, kind, status, titles: titles.join(''), offsets },
    },
    [kind.buffer, status.buffer, offsets.buffer],
  );
}

self.onmessage = (e: MessageEvent<Request>) => {
  const req = e.data;
  try {
    if (req.type === 'load') load(req);
    else if (req.type === 'filter') {
      const indices = model ? filterRows(model, req.filter) : new Int32Array(0);
      post({ type: 'filtered', id: req.id, indices }, [indices.buffer]);
    } else if (req.type === 'detail') {
      post({ type: 'detail', seq: req.seq, detail: model ? (detailOf(model, facts, req.seq) ?? null) : null });
    }
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
