import type { LogSummary } from './summary.js';

/** Renders a replay summary as plain text for people (used by `a3s replay` and the demo). */
export function formatSummary(s: LogSummary): string {
  const lines: string[] = [];
  lines.push(`facts: ${s.facts}   turns: ${s.turns}   model turns: ${s.model_turns}   final phase: ${s.final_phase}`);
  for (const r of s.runs) {
    const took = r.duration_ms === null ? '' : ` in ${r.duration_ms} ms`;
    const completion = r.completion ? ` (${r.completion})` : '';
    lines.push(`run ${r.run_id}: ${r.status}${completion}${took}, seq ${r.started_seq}..${r.ended_seq ?? '…'}`);
  }
  lines.push(`phases: ${s.phase_timeline.map((t) => `${t.phase}@${t.seq}`).join(' → ') || '(none)'}`);
  lines.push(`tool calls: ${s.tools.total} (${s.tools.ok} ok, ${s.tools.failed} failed)`);
  for (const [name, t] of Object.entries(s.tools.by_name).sort(([a], [b]) => a.localeCompare(b))) {
    const took = t.duration_ms > 0 ? `, ${t.duration_ms} ms` : '';
    lines.push(`  ${name.padEnd(16)} ${t.calls} call(s): ${t.ok} ok, ${t.failed} failed${took}`);
  }
  lines.push(`tokens: ${s.usage.input_tokens} in, ${s.usage.output_tokens} out`);
  lines.push(
    `budget denials: ${s.budget_denials}   confirmations: ${s.confirmations.approved} approved, ${s.confirmations.refused} refused   ` +
      `questions: ${s.questions.asked} asked, ${s.questions.answered} answered, ${s.questions.skipped} skipped   compactions: ${s.compactions}`,
  );
  if (s.parked?.phase === 'confirm')
    lines.push(`parked: waiting for confirmation of ${s.parked.tool_name} (${s.parked.tool_call_id})`);
  if (s.parked?.phase === 'question')
    lines.push(`parked: waiting for an answer to "${s.parked.question}" (${s.parked.question_id})`);
  for (const a of s.attachments ?? [])
    lines.push(
      `attachment in turn ${a.turn} (seq ${a.seq}): ${a.name ?? '(unnamed)'} ${a.media_type}, ${a.size} bytes, sha256 ${a.sha256}`,
    );
  for (const u of s.unfinished_calls ?? [])
    lines.push(
      `no result: ${u.name} (${u.tool_call_id}) asked at seq ${u.seq}${u.run_id === null ? '' : ` in run ${u.run_id}`}: ${u.ended_by === 'log_end' ? 'the log ends while it was due (the process ended while it ran, or before it started)' : 'its run ended before its result (a crash or an interrupt while it ran, or before it started)'}`,
    );
  for (const c of s.continuations) lines.push(`continued at seq ${c.seq} (${c.origin.replace('_', ' ')}): ${c.reason}`);
  for (const e of s.errors) lines.push(`error at seq ${e.seq}: ${e.code}: ${e.message}`);
  if (s.ignored || s.unknown) lines.push(`ignored facts: ${s.ignored}   unknown kinds: ${s.unknown}`);
  if (s.duration_ms !== null) lines.push(`duration: ${s.duration_ms} ms`);
  return lines.join('\n');
}
