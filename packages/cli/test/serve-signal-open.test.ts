// A signal that reaches `a3s serve` while a `session/open` is still opening (its MCP server not yet
// answering) goes through the server's one shutdown: the running session's run ends cancelled in
// its run/result and its log, the pending open is answered (SHUTTING_DOWN), the MCP server that
// was starting is stopped, and the exit code is the signal's. Many opens at once add no listener
// per open (no MaxListenersExceededWarning).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

/** The pids of the processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(process.platform !== 'linux')('a3s serve: a signal while a session opens', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)
    it(`${signal}: the running run ends cancelled, the pending open is answered, its MCP server is stopped, exit ${code}`, async () => {
      const dir = tempRepo();
      const slowDir = tempRepo();
      const marker = `a3s-serve-open-${signal}-${process.pid}-${Date.now()}`;
      // An MCP server that never answers `initialize`: the open waits for it (60 s).
      writeFileSync(
        join(slowDir, 'a3s.config.json'),
        JSON.stringify({
          mcpServers: {
            mute: {
              command: process.execPath,
              args: ['-e', 'setTimeout(() => {}, 120000)', marker],
              connectTimeoutMs: 60_000,
            },
          },
        }),
      );
      const s = serve(dir);
      const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
        workspace: dir,
        sessionId: 'running',
        model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
      });
      const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
      await s.waitFor((m) => m.method === 'event' && (m.params as { type?: string }).type === 'turn_start');
      const opening = s.request('session/open', {
        workspace: slowDir,
        model: `scripted:${scriptFile([{ text: 'hi' }])}`,
        trustWorkspace: true,
      });
      await until(() => processesWith(marker).length > 0);
      s.child.kill(signal);
      expect(await s.exited, s.stderr).toBe(code);
      expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
      const log = join(dir, '.a3s', 'effect-log', 'running.jsonl');
      expect(parseLog(readFileSync(log, 'utf8')).facts.at(-1)).toMatchObject({
        type: 'run.ended',
        payload: { status: 'cancelled' },
      });
      const answered = await opening;
      expect(answered.error).toMatchObject({ code: -32000, data: { code: 'SHUTTING_DOWN' } });
      expect(answered.error?.message).toContain(`shutting down (${signal})`);
      await until(() => processesWith(marker).length === 0, 5000);
      expect(s.invalid).toEqual([]);
      expect(s.stderr).not.toMatch(/\n\s+at /);
    });

  it('twelve opens at once add no signal listener each: no MaxListenersExceededWarning', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const model = `scripted:${scriptFile([{ text: 'hi' }])}`;
    const opened = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.request('session/open', { workspace: dir, model, sessionId: `many-${i}` }),
      ),
    );
    expect(opened.map((r) => r.error)).toEqual(Array.from({ length: 12 }, () => undefined));
    expect(await s.end()).toBe(0);
    expect(s.stderr).not.toContain('MaxListenersExceededWarning');
  });
});
