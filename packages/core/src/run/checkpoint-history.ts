/**
 * Rebuilding a thread's log from a run's loop checkpoint. The log is append-only, so "rebuild"
 * means: append, as history facts, the part of the checkpoint's transcript the log's
 * conversation does not already hold. The checkpoint supplies history only; the next step still
 * comes from folding the log, which history leaves quiescent.
 */
import type { AttachmentRef, Message } from '@a3s-code/effect';
import type { HistoryTurn } from './run-checkpoint.js';

/**
 * A conversation as history turns: every user message (with its attachments' references), and
 * each assistant message with text.
 */
export function historyTurns(messages: readonly Message[]): HistoryTurn[] {
  const turns: HistoryTurn[] = [];
  for (const m of messages) {
    if (m.role === 'user')
      turns.push(
        m.attachments !== undefined && m.attachments.length > 0
          ? { role: 'user', content: m.text, attachments: m.attachments.map((a) => ({ ...a })) }
          : { role: 'user', content: m.text },
      );
    else if (m.role === 'assistant' && m.text.length > 0) turns.push({ role: 'assistant', content: m.text });
  }
  return turns;
}

function sameAttachments(a: readonly AttachmentRef[] = [], b: readonly AttachmentRef[] = []): boolean {
  return a.length === b.length && a.every((x, i) => x.sha256 === b[i]!.sha256);
}

/**
 * The turns of `checkpoint` that `log` lacks: everything after their longest common prefix. A log
 * that already holds the whole transcript gets nothing.
 */
export function missingTurns(log: readonly HistoryTurn[], checkpoint: readonly HistoryTurn[]): HistoryTurn[] {
  let k = 0;
  while (
    k < log.length &&
    k < checkpoint.length &&
    log[k]!.role === checkpoint[k]!.role &&
    log[k]!.content === checkpoint[k]!.content &&
    sameAttachments(log[k]!.attachments, checkpoint[k]!.attachments)
  )
    k++;
  return checkpoint.slice(k);
}
