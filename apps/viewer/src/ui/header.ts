/** The overview above the list: totals, the phase timeline and token usage per turn. */
import { formatCost, formatDuration } from '../model/text.js';
import { type Overview, TURN_ROWS } from '../protocol.js';
import { h } from './dom.js';

function stat(label: string, value: string, cls = ''): HTMLElement {
  return h('span', { class: `stat ${cls}` }, h('b', {}, value), ` ${label}`);
}

/** Token usage per turn, built when first opened (a long log has thousands of turns). */
function turnsTable(o: Overview): HTMLElement {
  const details = h('details', { class: 'turns' }, h('summary', {}, `Token usage per turn (${o.turnCount})`));
  details.addEventListener(
    'toggle',
    () => {
      const head = h('tr', {}, ...['turn', 'model turns', 'in', 'out', 'cost'].map((c) => h('th', {}, c)));
      const rows = o.turns
        .slice(0, TURN_ROWS)
        .map((t) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#seq=${t.seq}` }, String(t.turn))),
            h('td', {}, String(t.modelTurns)),
            h('td', {}, String(t.inputTokens)),
            h('td', {}, String(t.outputTokens)),
            h('td', {}, t.cost === null ? '—' : formatCost(t.cost)),
          ),
        );
      details.append(h('table', {}, head, ...rows));
      if (o.turnCount > TURN_ROWS) details.append(h('p', {}, `first ${TURN_ROWS} of ${o.turnCount} turns`));
    },
    { once: true },
  );
  return details;
}

/** Renders `o` into the header and the timeline elements. */
export function renderOverview(head: HTMLElement, timeline: HTMLElement, o: Overview): void {
  const s = o.summary;
  const runs = s.runs.map((r) => `${r.run_id}: ${r.status}${r.completion ? ` (${r.completion})` : ''}`).join(', ');
  const cost =
    o.cost !== null
      ? formatCost(o.cost)
      : o.unpriced.length > 0 && o.turns.some((t) => t.cost !== null && t.cost > 0)
        ? 'partial'
        : null;
  head.replaceChildren(
    h('div', { class: 'file' }, h('b', {}, o.name), ` · ${s.facts} facts · folded in ${o.foldMs} ms`),
    h(
      'div',
      { class: 'stats' },
      stat('runs', String(s.runs.length)),
      stat('turns', String(s.turns)),
      stat('model turns', String(s.model_turns)),
      stat('tool calls', `${s.tools.total} (${s.tools.failed} failed)`, s.tools.failed > 0 ? 'bad' : ''),
      stat('tokens in', s.usage.input_tokens.toLocaleString('en')),
      stat('tokens out', s.usage.output_tokens.toLocaleString('en')),
      cost !== null ? stat('cost', cost) : null,
      s.duration_ms !== null ? stat('elapsed', formatDuration(s.duration_ms)) : null,
      s.budget_denials > 0 ? stat('budget denials', String(s.budget_denials), 'warn') : null,
      s.compactions > 0 ? stat('compactions', String(s.compactions)) : null,
      s.errors.length > 0 ? stat('errors', String(s.errors.length), 'bad') : null,
      s.parked ? stat('parked', s.parked.phase, 'warn') : null,
    ),
    h('div', { class: 'runs' }, runs ? `runs: ${runs}` : 'no runs', ` · final phase: ${s.final_phase}`),
    o.torn ? h('div', { class: 'bad' }, `torn last line ignored (${o.torn})`) : '',
    turnsTable(o),
  );
  timeline.replaceChildren(
    ...o.bars.map((b) =>
      h('a', {
        class: `bar p-${b.phase}`,
        href: `#seq=${b.fromSeq}`,
        style: `flex-grow:${b.weight}`,
        title: `${b.phase} · #${b.fromSeq}–#${b.toSeq}${b.durationMs !== null ? ` · ${formatDuration(b.durationMs)}` : ''}`,
      }),
    ),
  );
}
