/** The phase timeline as bars: at most a given number of spans, sized by time or by facts. */
import type { Phase } from '@a3s-code/effect';
import type { PhaseSpan } from './types.js';

/** One bar of the timeline. */
export interface TimelineBar {
  readonly phase: Phase;
  readonly fromSeq: number;
  readonly toSeq: number;
  /** Share of the width, 0..1. */
  readonly weight: number;
  readonly durationMs: number | null;
}

/**
 * Bars for `spans`: sized by duration when every span has one (and time passed), else by the
 * facts they cover; when there are more than `max` spans, neighbours merge into buckets of
 * equal fact counts, each showing the phase that covers most of it.
 */
export function timelineBars(spans: readonly PhaseSpan[], max = 600): TimelineBar[] {
  if (spans.length === 0) return [];
  const first = spans[0]!.fromSeq;
  const last = spans[spans.length - 1]!.toSeq;
  const factsOf = (s: PhaseSpan) => Math.max(1, s.toSeq - s.fromSeq);
  if (spans.length <= max) {
    const timed = spans.every((s) => s.durationMs !== null);
    const totalMs = timed ? spans.reduce((n, s) => n + (s.durationMs ?? 0), 0) : 0;
    const totalFacts = spans.reduce((n, s) => n + factsOf(s), 0);
    return spans.map((s) => ({
      phase: s.phase,
      fromSeq: s.fromSeq,
      toSeq: s.toSeq,
      durationMs: s.durationMs,
      weight: totalMs > 0 ? (s.durationMs ?? 0) / totalMs : factsOf(s) / totalFacts,
    }));
  }
  const width = Math.max(1, (last - first + 1) / max);
  const bars: TimelineBar[] = [];
  let i = 0;
  for (let b = 0; b < max; b++) {
    const from = first + Math.floor(b * width);
    const to = b === max - 1 ? last + 1 : first + Math.floor((b + 1) * width);
    const cover = new Map<Phase, number>();
    let ms: number | null = 0;
    while (i < spans.length) {
      const s = spans[i]!;
      const end = i + 1 < spans.length ? spans[i + 1]!.fromSeq : last + 1;
      const overlap = Math.min(end, to) - Math.max(s.fromSeq, from);
      if (overlap > 0) cover.set(s.phase, (cover.get(s.phase) ?? 0) + overlap);
      if (end > to) break;
      if (ms !== null) ms = s.durationMs === null ? null : ms + s.durationMs;
      i++;
    }
    let phase: Phase = spans[Math.min(i, spans.length - 1)]!.phase;
    let best = -1;
    for (const [p, n] of cover)
      if (n > best) {
        best = n;
        phase = p;
      }
    bars.push({ phase, fromSeq: from, toSeq: Math.max(from, to - 1), weight: 1 / max, durationMs: null });
  }
  return bars;
}
