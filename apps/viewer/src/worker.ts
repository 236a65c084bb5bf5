/// <reference lib="webworker" />
/** The fold worker: parses and folds the log off the page's thread, then answers filters and details. */
import { parseLog, type Fact } from '@a3s-code/effect';
import { buildModel, type BuiltModel } from './model/build.js';
import { detailOf } from './model/detail.js';
import { filterRows } from './model/filter.js';
import { timelineBars } from './model/timeline.js';
import { KINDS, STATUSES, type Reply, type Request } from './protocol.js';

declare const self: DedicatedWorkerGlobalScope;

let facts: Fact[] = [];
let model: BuiltModel | null = null;

function post(reply: Reply, transfer: Transferable[] = []): void {
  self.postMessage(reply, transfer);
}

function load(req: Extract<Request, { type: 'load' }>): void {
  const started = performance.now();
  const text = new TextDecoder().decode(req.bytes);
  const parsed = parseLog(text);
  facts = parsed.facts;
  model = buildModel(facts, req.pricing ? { pricing: req.pricing } : {});
  const n = model.rows.length;
  const kind = new Uint8Array(n);
  const status = new Uint8Array(n);
  const titles: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = model.rows[i]!;
    kind[i] = KINDS.indexOf(r.kind);
    status[i] = STATUSES.indexOf(r.status);
    titles[i] = (r.ignored ? `${r.title} [ignored by the fold]` : r.title).replaceAll('\u0000', ' ');
  }
  post(
    {
      type: 'loaded',
      overview: {
        name: req.name,
        summary: model.summary,
        turns: model.turns,
        bars: timelineBars(model.timeline),
        cost: model.cost,
        unpriced: model.unpriced,
        toolNames: model.toolNames,
        torn: parsed.torn ? `line ${parsed.torn.line}: ${parsed.torn.reason}` : null,
        foldMs: Math.round(performance.now() - started),
      },
      list: { count: n, kind, status, titles: titles.join('\u0000') },
    },
    [kind.buffer, status.buffer],
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
