// A prompt-injected model that wants the user's API key: the CLI was started with OPENAI_API_KEY in
// its environment, and commands go without it, so the model looks for it where the key still is:
// the environment of the CLI process and of its parents (`/proc/<pid>/environ`, readable by every
// process of the same user), and sends it out encoded, where redaction cannot see it. The real
// CLI, a real command, under --yolo.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

const KEY = 'sk-proc-probe-8d2f1c9a7b';

/** Whether this machine can start a command in namespaces of its own (Linux, Perl, user namespaces). */
function namespacesHere(): boolean {
  if (process.platform !== 'linux') return false;
  const r = spawnSync('unshare', ['-Urpf', '--mount-proc', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

/** Runs `a3s run --json --yolo` with the key in its environment; the outputs of its tool calls, in order. */
function runWithKey(turns: unknown[]): { stdout: string; outputs: string[] } {
  const r = a3s(['run', '--json', '--yolo', '--model', `scripted:${scriptFile(turns)}`, '--cwd', tempRepo(), 'go'], {
    OPENAI_API_KEY: KEY,
  });
  expect(r.status, r.stderr).toBe(0);
  const outputs = r.stdout
    .split('\n')
    .filter((l) => l.includes('"tool_end"'))
    .map((l) => (JSON.parse(l) as { payload: { output: string } }).payload.output);
  return { stdout: r.stdout, outputs };
}

describe.skipIf(!namespacesHere())('the API key in the environment the CLI started with', () => {
  it('a command finds it in no process it can see, however it reads /proc', () => {
    const scan =
      `for f in /proc/[0-9]*/environ /proc/[0-9]*/task/[0-9]*/environ; do cat "$f" 2>/dev/null | tr '\\0' '\\n'; done | grep '^OPENAI_API_KEY=' | base64 -w0; ` +
      `echo; echo "parent $PPID"; ls /proc | grep -c '^[0-9]'`;
    const r = runWithKey([
      { text: 'Looking around.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: scan } }] },
      { text: 'Done.' },
    ]);
    const ends = r.outputs.join('\n');
    expect(ends).toContain('parent');
    expect(r.stdout).not.toContain(KEY);
    expect(r.stdout).not.toContain(Buffer.from(`OPENAI_API_KEY=${KEY}`).toString('base64').slice(0, 24));
    // The command saw its own few processes only, none of the host's.
    const seen = /parent \d+\\n(\d+)/.exec(r.stdout);
    expect(Number(seen?.[1])).toBeLessThan(8);
  });

  it('commands still see and stop the processes earlier commands left running', () => {
    const { outputs: ends } = runWithKey([
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'sleep 419.97 >/dev/null 2>&1 & echo started' } }] },
      { tool_calls: [{ id: 'b2', name: 'bash', args: { command: 'pkill -f "^sleep 419.97" && echo stopped' } }] },
      { text: 'Done.' },
    ]);
    // Reported by the pid later commands know it by (a small one: theirs, not the host's).
    expect(ends[0]).toMatch(/^started\n\[1 background process still running: \d{1,3} sleep 419\.97\./);
    expect(ends[1]).toBe('stopped\n');
  });
});
