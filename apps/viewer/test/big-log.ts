/** A large synthetic fact log for the viewer's load-and-scroll test: valid version-1 facts. */
import { encodeFact, type Fact } from '@a3s-code/effect';

/** A log of at most `target` facts (and within 6 of it): rounds of prompt, a tool turn (edit with a diff, bash), results and an answer. */
export function bigLog(target: number): { text: string; facts: number } {
  const lines: string[] = [];
  let seq = 0;
  let at = 1_764_460_800_000;
  const push = (type: string, key: string, cause: string | null, payload: Record<string, unknown>) => {
    at += 250;
    lines.push(encodeFact({ seq: ++seq, type, key, cause, payload: { ...payload, at_ms: at } } as Fact));
  };
  push('run.started', 'run:big', null, { run_id: 'big', model: 'scripted/big', system: ['You are A3S Code.'] });
  for (let t = 1; seq + 6 <= target - 1; t++) {
    push('user.message', `user:${t}`, null, { text: `Task ${t}: fix the bound in file ${t % 97}.ts`, source: 'user' });
    const calls = [
      {
        id: `e${t}`,
        name: 'edit',
        args: { file_path: `src/f${t % 97}.ts`, old_string: 'i < n', new_string: 'i <= n' },
        needs_confirmation: false,
      },
      { id: `b${t}`, name: 'bash', args: { command: `npm test -- f${t % 97}` }, needs_confirmation: false },
    ];
    push('model.turn', `model-turn:${t}:0`, `infer:${t}:0`, {
      decision: { kind: 'tool', text: `Editing f${t % 97}.ts.`, calls },
      usage: { input_tokens: 1200 + (t % 50), output_tokens: 40 },
      reasoning: 'The loop stops one short.',
    });
    const diff = `--- a/src/f${t % 97}.ts\n+++ b/src/f${t % 97}.ts\n@@ -1,3 +1,3 @@\n export function f(n) {\n-  for (let i = 0; i < n; i++) g(i);\n+  for (let i = 0; i <= n; i++) g(i);\n }\n`;
    push('tool.result', `tool-result:${t}:0:e${t}`, `tool:${t}:0:e${t}`, {
      tool_call_id: `e${t}`,
      name: 'edit',
      ok: true,
      output: `edited src/f${t % 97}.ts\n${diff}`,
      exit_code: 0,
      metadata: { diff, duration_ms: 4, permission: 'allow' },
    });
    const ok = t % 7 !== 0;
    push('tool.result', `tool-result:${t}:0:b${t}`, `tool:${t}:0:b${t}`, {
      tool_call_id: `b${t}`,
      name: 'bash',
      ok,
      output: ok ? '12 passing' : '1 failing: expected 3, got 2',
      exit_code: ok ? 0 : 1,
      metadata: { duration_ms: 900, permission: 'allow' },
    });
    push('model.turn', `model-turn:${t}:1`, `infer:${t}:1`, {
      decision: { kind: 'text', text: ok ? 'Fixed; tests pass.' : 'Fixed, but one test still fails.' },
      usage: { input_tokens: 1500, output_tokens: 12 },
    });
  }
  push('run.ended', 'end:big', null, { status: 'completed', run_id: 'big', completion: 'narrative' });
  return { text: `${lines.join('\n')}\n`, facts: lines.length };
}
