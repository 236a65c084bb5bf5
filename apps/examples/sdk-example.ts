// The README's SDK example, executed by the tests: fix demo-repo's failing test through the SDK.
// Offline it uses the scripted model; set A3S_MODEL (and its key) to use a real one.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/sdk';

const repo = mkdtempSync(join(tmpdir(), 'a3s-sdk-example-'));
cpSync(join(import.meta.dirname, 'demo-repo'), repo, { recursive: true });

const agent = await Agent.create({
  model: process.env.A3S_MODEL ?? `scripted:${join(import.meta.dirname, 'demo-model.json')}`,
}).catch((e: Error) => {
  // A3S_MODEL without its key, or a malformed model: the typed error names what to set.
  console.error(`sdk-example: ${e.message}`);
  process.exit(2);
});
const session = await agent.session(repo, { governance: { yolo: true } });

const run = session.stream('The test suite fails (node --test). Find the bug, fix it, and verify the fix.');
for await (const ev of run) {
  if (ev.type === 'tool_start') console.log(`tool: ${ev.toolName}`);
  if (ev.type === 'agent_end') console.log(`agent: ${ev.text}`);
}
const result = await run.result;
console.log(`run: ${result.status} (${result.completion}), ${result.toolCalls} tool calls`);

// Host-direct calls: the same governed kernel, no transcript entry, no permission prompt.
console.log('files:', await session.glob('**/*.js', { sort: 'path' }));
console.log('fixed line:', (await session.grep('i <= end')).trim());
console.log('tests:', (await session.bash('node --test 2>&1 | grep "^# pass"')).trim());
const report = await session.verifyCommands('release check', [
  { id: 'unit', kind: 'test', command: 'node --test', timeoutMs: 60_000 },
]);
console.log(`verification: ${report.status}; log: ${session.logPath}`);
await session.close();
