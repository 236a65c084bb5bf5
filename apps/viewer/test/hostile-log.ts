/** A valid fact log whose every model-written field carries markup, script, CSS, controls and bidi overrides. */
import { encodeFact, type Fact } from '@a3s-code/effect';

/** What a hostile model writes everywhere: each payload, if it ever ran, sets `window.__pwned`. */
export const HOSTILE = [
  `<img src=x onerror="window.__pwned='img'">`,
  `<script>window.__pwned='script'</script>`,
  `<svg onload="window.__pwned='svg'"></svg>`,
  `<a href="javascript:window.__pwned='a'">link</a>`,
  `[md](javascript:window.__pwned='md') ![i](x" onerror="window.__pwned='mdimg')`,
  `</pre></style><style>*{display:none}</style>`,
  'reversed \u202Egnp.exe\u202C',
  '\u001b[31mred\u001b[0m\u0007',
].join(' ');

/** Nine facts: a run, a prompt, a tool turn, a failed result with a diff, a question, an answer, a compaction, an unknown kind, a failed end. */
export function hostileLog(): string {
  const X = HOSTILE;
  const lines: string[] = [];
  const push = (type: string, cause: string | null, payload: Record<string, unknown>) => {
    const seq = lines.length + 1;
    lines.push(encodeFact({ seq, type, key: `${type}:${seq}:${X.slice(0, 40)}`, cause, payload } as Fact));
  };
  // An `at_ms` far outside the dates a browser shows.
  push('run.started', null, { run_id: X, model: X, system: [X], at_ms: 1e20 });
  push('user.message', null, { text: X, source: 'user', reason: X, at_ms: -1e20 });
  const args = { file_path: X, old_string: X, new_string: X, [X]: X };
  push('model.turn', X, {
    decision: { kind: 'tool', text: X, calls: [{ id: X, name: X, args, needs_confirmation: true }] },
    usage: { input_tokens: 1, output_tokens: 2 },
    reasoning: X,
  });
  push('tool.result', X, {
    tool_call_id: X,
    name: X,
    ok: false,
    output: X,
    exit_code: 1,
    metadata: { diff: `--- ${X}\n+++ ${X}\n@@ ${X}\n-${X}\n+${X}`, permission: X, error_kind: X, [X]: X },
  });
  push('model.turn', X, {
    decision: {
      kind: 'question',
      question_id: X,
      question: X,
      context: X,
      allow_free_text: true,
      multi_select: false,
      options: [{ label: X, description: X }],
    },
    usage: { input_tokens: 1, output_tokens: 2 },
  });
  push('question.answered', X, { question_id: X, text: X });
  push('compaction.done', X, { kept: 1, summary: X });
  push('x.evil', X, { anything: X });
  push('run.ended', X, { run_id: X, status: 'failed', completion: X, error: { code: X, message: X } });
  return `${lines.join('\n')}\n`;
}
