/**
 * The viewer page: loads a fact log (file picker, drag-and-drop, or the log `a3s replay --web`
 * serves next to the page), hands it to the fold worker, and shows the overview, the phase
 * timeline, the virtualised fact list, filters and the detail of the selected fact (`#seq=N`).
 */
import type { RowFilter } from './model/filter.js';
import type { Pricing, RowKind, RowStatus } from './model/types.js';
import type { Reply, Request } from './protocol.js';
import { renderDetail } from './ui/detail-view.js';
import { MAX_LOG_TEXT, tooLargeMessage } from './model/log-size.js';
import { visible } from './model/text.js';
import { byId, h } from './ui/dom.js';
import { renderOverview } from './ui/header.js';
import { VirtualList } from './ui/list.js';

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const send = (req: Request, transfer: Transferable[] = []) => worker.postMessage(req, transfer);

const body = document.body;
const head = byId('overview');
const timeline = byId('timeline');
const panel = byId('detail');
const status = byId('status');
const search = byId<HTMLInputElement>('q');
const toolSel = byId<HTMLSelectElement>('tool');
const statusSel = byId<HTMLSelectElement>('row-status');
const kindSel = byId<HTMLSelectElement>('kind');
const list = new VirtualList(byId('list'), (seq) => {
  location.hash = `seq=${seq}`;
});

let pricing: Pricing | undefined;
let loaded = false;
let filterId = 0;

function setState(state: 'empty' | 'loading' | 'loaded' | 'error', message = ''): void {
  body.dataset.state = state;
  status.textContent = visible(message);
}

/**
 * Hands a log to the fold worker. The worker reads it too: a file of many megabytes read here would
 * hold the page's thread while its bytes are copied in.
 */
function loadBlob(name: string, file: Blob): void {
  setState('loading', `Reading and folding ${name}…`);
  loaded = false;
  send({ type: 'load', name, file, ...(pricing ? { pricing } : {}) });
}

function currentFilter(): RowFilter {
  return {
    text: search.value,
    tool: toolSel.value,
    status: statusSel.value as RowStatus | 'problems' | '',
    kinds: kindSel.value ? (kindSel.value.split(',') as RowKind[]) : [],
  };
}

function applyFilter(): void {
  send({ type: 'filter', id: ++filterId, filter: currentFilter() });
}

function hashSeq(): number | null {
  const m = /^#seq=(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

function followHash(): void {
  const seq = hashSeq();
  if (seq === null || !loaded) return;
  if (!list.select(seq)) {
    // The filter hides the fact: show everything so the link lands.
    search.value = '';
    toolSel.value = '';
    statusSel.value = '';
    kindSel.value = '';
    pendingSelect = seq;
    applyFilter();
  }
  send({ type: 'detail', seq });
}
let pendingSelect: number | null = null;

worker.onmessage = (e: MessageEvent<Reply>) => {
  const r = e.data;
  if (r.type === 'error') {
    setState('error', r.unread ? r.message : `Could not read the log: ${r.message}`);
  } else if (r.type === 'loaded') {
    performance.mark('a3s:loaded-received');
    loaded = true;
    // The list first; the overview in the next task, so neither makes one long task.
    setTimeout(() => renderOverview(head, timeline, r.overview), 0);
    toolSel.replaceChildren(
      h('option', { value: '' }, 'all tools'),
      ...r.overview.toolNames.map((t) => h('option', { value: t }, t)),
    );
    list.setData(r.list);
    body.dataset.facts = String(r.list.count);
    setState('loaded');
    if (currentFilter().text || statusSel.value || kindSel.value) applyFilter();
    if (hashSeq() !== null) followHash();
    else panel.replaceChildren(h('p', { class: 'empty' }, 'Click a fact to see its detail.'));
    performance.measure('a3s:loaded-render', 'a3s:loaded-received');
  } else if (r.type === 'filtered') {
    if (r.id !== filterId) return;
    list.setIndices(r.indices);
    status.textContent = `${r.indices.length} of ${body.dataset.facts} facts shown`;
    if (pendingSelect !== null) {
      list.select(pendingSelect);
      pendingSelect = null;
    }
  } else if (r.type === 'detail') {
    if (r.seq === hashSeq()) renderDetail(panel, r.seq, r.detail);
  }
};
worker.onerror = (e) => setState('error', `The fold worker failed: ${e.message}`);

let debounce = 0;
search.addEventListener('input', () => {
  clearTimeout(debounce);
  debounce = window.setTimeout(applyFilter, 150);
});
for (const sel of [toolSel, statusSel, kindSel]) sel.addEventListener('change', applyFilter);
window.addEventListener('hashchange', followHash);

const picker = byId<HTMLInputElement>('file');
/** Loads a picked or dropped file; one the browser cannot read is named by the worker with why, never a silent no-op. */
function loadFile(file: File): void {
  // Refused by its size before a byte is read: reading it whole would only fail later, slowly.
  if (file.size > MAX_LOG_TEXT) {
    setState('error', tooLargeMessage(file.size));
    return;
  }
  loadBlob(file.name, file);
}

picker.addEventListener('change', () => {
  const file = picker.files?.[0];
  if (file) loadFile(file);
});
window.addEventListener('dragover', (e) => {
  e.preventDefault();
  body.classList.add('dragging');
});
window.addEventListener('dragleave', () => body.classList.remove('dragging'));
window.addEventListener('drop', (e) => {
  e.preventDefault();
  body.classList.remove('dragging');
  const file = e.dataTransfer?.files[0];
  if (file) loadFile(file);
});

/** When `a3s replay --web` serves the page, it serves the log (and the workspace's prices) next to it. */
async function loadServed(): Promise<void> {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
  try {
    const res = await fetch('log.jsonl', { cache: 'no-store' });
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('ndjson')) return;
    const name = decodeURIComponent(res.headers.get('x-a3s-log-name') ?? 'log.jsonl');
    const priced = await fetch('pricing.json', { cache: 'no-store' });
    if (priced.ok && (priced.headers.get('content-type') ?? '').includes('json'))
      pricing = (await priced.json()) as Pricing;
    loadBlob(name, await res.blob());
  } catch {
    // Not served with a log: the page waits for a file.
  }
}

setState('empty', 'Open a .jsonl fact log, or drop one on the page.');
void loadServed();
