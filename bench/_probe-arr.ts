import { drafts, encodeFact, FactLog } from '@a3s-code/effect';
import { performance } from 'node:perf_hooks';
const log = new FactLog();
for (let turn = 1; log.length < 1_000_000; turn++) {
  log.append([{ type: 'user.message', key: `u${turn}`, payload: { text: `task ${turn}`, source: 'user' } }], null);
  const call = { id: `c${turn}`, name: 'noop', args: { file_path: `src/f${turn % 97}.ts` }, needs_confirmation: false };
  log.append([drafts.modelTurn(turn, 0, { decision: { kind: 'tool', calls: [call] }, usage: { input_tokens: 900, output_tokens: 30 } })], `infer:${turn}:0`);
  log.append([drafts.toolResult({ turn, cycle: 0, call }, { ok: true, output: 'x'.repeat(80), exit_code: 0 })], `tool:${turn}:0:c${turn}`);
  log.append([drafts.modelTurn(turn, 1, { decision: { kind: 'text', text: 'done' }, usage: { input_tokens: 1000, output_tokens: 5 } })], `infer:${turn}:1`);
}
const parts: string[] = [];
for (const f of log.facts) parts.push(encodeFact(f));
const text = parts.join('\n') + '\n';
console.log('MiB', text.length / 2 ** 20);
function perLine(keep: boolean) { const out: unknown[] = []; let s = 0; for (;;) { const nl = text.indexOf('\n', s); if (nl < 0) break; const v = JSON.parse(text.slice(s, nl)); if (keep) out.push(v); s = nl + 1; } return out; }
function arr() { return JSON.parse('[' + text.slice(0, -1).replaceAll('\n', ',') + ']'); }
function arr2() { const s = '[' + text.slice(0, -1).replaceAll('\n', ',') + ']'; return s.length; }
const fns: [string, () => unknown][] = [['throw', () => perLine(false)], ['kept', () => perLine(true)], ['arr', arr], ['replace only', arr2]];
for (let r = 0; r < 6; r++) {
  const row: string[] = [];
  for (const [n, f] of fns) { (globalThis as any).gc?.(); const t = performance.now(); f(); row.push(`${n} ${(performance.now() - t).toFixed(0)}`); }
  console.log(row.join('  '));
}
