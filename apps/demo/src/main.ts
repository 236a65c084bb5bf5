// The README's main job (until the SDK and CLI land): fold the bundled example workspace's fact
// log with `@a3s-code/effect` alone and print its replay summary, the way `a3s replay` will.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FactLog, fold, formatSummary, parseLog, summarizeLog } from '@a3s-code/effect';

const file = process.argv[2] ?? join(import.meta.dirname, '..', 'workspace', '.a3s', 'effect-log', 'demo.jsonl');
const parsed = parseLog(readFileSync(file, 'utf8'));
if (parsed.torn) console.warn(`note: ignoring a torn last line (${parsed.torn.reason})`);
const log = new FactLog(parsed.facts);
const state = fold(log.facts);
const digest = log.digest();

console.log(`A3S Code replay of ${file}`);
console.log(`digest: seq ${digest.seq}, sha256 ${digest.digest}`);
console.log(formatSummary(summarizeLog(log.facts)));
console.log('');
console.log('conversation:');
for (const m of state.view.messages) {
  if (m.role === 'user') console.log(`  user (${m.source}): ${m.text}`);
  else if (m.role === 'assistant') {
    if (m.text) console.log(`  assistant: ${m.text}`);
    for (const c of m.tool_calls) console.log(`  → ${c.name} ${JSON.stringify(c.args).slice(0, 90)}`);
  } else console.log(`  ← ${m.name} ${m.ok ? 'ok' : 'failed'}: ${m.output.split('\n')[0]?.slice(0, 80)}`);
}
