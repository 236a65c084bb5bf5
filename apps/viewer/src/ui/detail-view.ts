/** Renders a fact's detail (sections from the worker) into the side panel. */
import type { Detail, Section } from '../model/detail.js';
import { formatStamp } from '../model/text.js';
import { h } from './dom.js';

function section(s: Section): HTMLElement {
  const body = (() => {
    switch (s.kind) {
      case 'text':
        return h('pre', { class: 'text' }, s.text);
      case 'pairs':
        return h(
          'dl',
          { class: 'pairs' },
          ...s.pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', { 'data-key': k }, v)]),
        );
      case 'diff':
        return h('pre', { class: 'diff' }, ...s.diff.lines.map((l) => h('div', { class: `d-${l.kind}` }, l.text)));
      case 'links':
        return h(
          'ul',
          { class: 'links' },
          ...s.links.map((l) => h('li', {}, h('a', { href: `#seq=${l.seq}` }, `${l.label} (#${l.seq})`))),
        );
    }
  })();
  return h('section', { class: `sec sec-${s.kind}` }, h('h3', {}, s.label), body);
}

/** Fills `panel` with `detail` (or a note when there is none). */
export function renderDetail(panel: HTMLElement, seq: number, detail: Detail | null): void {
  panel.replaceChildren();
  if (!detail) {
    panel.append(h('p', { class: 'empty' }, `No fact #${seq} in this log.`));
    return;
  }
  const r = detail.row;
  panel.append(
    h(
      'header',
      { class: `detail-head s-${r.status}` },
      h('h2', {}, `#${r.seq} ${detail.type}`),
      h('p', { class: 'title' }, r.title),
      h(
        'p',
        { class: 'meta' },
        `key ${detail.key} · cause ${detail.cause ?? 'host'} · turn ${r.turn} · phase after: ${r.phase}`,
        r.atMs !== null ? ` · ${formatStamp(r.atMs)}` : '',
        r.ignored ? ' · ignored by the fold' : '',
      ),
    ),
    ...detail.sections.map(section),
    h('details', { class: 'raw' }, h('summary', {}, 'Fact as stored'), h('pre', {}, detail.raw)),
  );
}
