/// <reference lib="webworker" />
/** The fold worker: parses and folds the log off the page's thread, then answers filters and details. */
import { parseLog, type Fact } from '@a3s-code/effect';
import { buildModel, type BuiltModel } from './model/build.js';
import { MAX_LOG_TEXT, tooLargeMessage } from './model/log-size.js';
import { detailOf } from './model/detail.js';
import { filterRows } from './model/filter.js';
import { timelineBars } from './model/timeline.js';
import { listColumns } from './list-columns.js';
import { TURN_ROWS, type Reply, type Request } from './protocol.js';

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

/** A log file the browser could not read: its message is whole and is shown as it is. */
class ReadFailure extends Error {}

/** The log's bytes; a file the browser cannot read (moved away, changed, refused) is named with why. */
async function readLog(req: Extract<Request, { type: 'load' }>): Promise<ArrayBuffer> {
  if (req.file.size > MAX_LOG_TEXT) throw new Error(tooLargeMessage(req.file.size));
  try {
    return await req.file.arrayBuffer();
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new ReadFailure(`Could not read ${req.name} (${req.file.size} bytes): ${why}`);
  }
}

async function load(req: Extract<Request, { type: 'load' }>): Promise<void> {
  const bytes = await readLog(req);
  const started = performance.now();
  const text = decodeLog(bytes);
  const parsed = parseLog(text);
  facts = parsed.facts;
  model = buildModel(facts, req.pricing ? { pricing: req.pricing } : {});
  const list = listColumns(model);
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
      list,
    },
    [list.kind.buffer, list.status.buffer, list.titles.buffer, list.offsets.buffer],
  );
}

async function handle(req: Request): Promise<void> {
  try {
    if (req.type === 'load') await load(req);
    else if (req.type === 'filter') {
      const indices = model ? filterRows(model, req.filter) : new Int32Array(0);
      post({ type: 'filtered', id: req.id, indices }, [indices.buffer]);
    } else if (req.type === 'detail') {
      post({ type: 'detail', seq: req.seq, detail: model ? (detailOf(model, facts, req.seq) ?? null) : null });
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    post({ type: 'error', message, ...(err instanceof ReadFailure ? { unread: true } : {}) });
  }
}

// One request at a time, in the order sent: a filter or a detail asked for while a log is still
// being read answers from that log, and a second log dropped meanwhile is folded after the first.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<Request>) => {
  const req = e.data;
  queue = queue.then(() => handle(req));
};
