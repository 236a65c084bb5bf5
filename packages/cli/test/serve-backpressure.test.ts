// `a3s serve` whose client stops reading stdout: a real server process, its stdout pipe left
// unread while a run streams tens of megabytes of events. The server's memory stays bounded (it
// stops reading requests and drops the run's events past its bound, counted in run/eventsDropped
// notices); once the client reads again every response and the run/result arrive intact.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo } from './kit.js';
import { type Message, schemaValidator } from './serve-kit.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** The resident set of a process, in bytes (Linux /proc). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;

describe('a3s serve: a client that stops reading', () => {
  it('memory stays bounded while stdout is not read; then every response and the run/result arrive intact, with run/eventsDropped notices counting what was dropped', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    // Four model turns of 20k words, each word a text_delta event: about 17 MB of notifications, four
    // times the server's 4 MiB output bound. A pause between turns lets the run's own event queue
    // drain, so what could pile up is the output.
    const words = 20_000;
    const turns: unknown[] = Array.from({ length: 4 }, (_, i) => ({
      delay_ms: 250,
      text: 'w '.repeat(words),
      tool_calls: [{ id: `r${i}`, name: 'read', args: { file_path: 'a.txt' } }],
    }));
    turns.push({ text: 'All read.' });
    const model = `scripted:${scriptFile(turns)}`;
    const base = { ...process.env };
    delete base.A3S_MODEL;
    const child = spawn(process.execPath, [A3S, 'serve'], { cwd: dir, env: base, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const send = (id: number, method: string, params: unknown): void =>
      void child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);

    // The client reads nothing yet: stdout fills the pipe, then waits in the server.
    send(1, 'session/open', { workspace: dir, model, sessionId: 'bp' });
    const logPath = `${dir}/.a3s/effect-log/bp.jsonl`;
    // The session's log is locked once the server runs and opened it: its resident set is steady from then on.
    const opened = Date.now() + 20_000;
    while (!existsSync(`${logPath}.lock`) && Date.now() < opened) await sleep(20);
    expect(existsSync(`${logPath}.lock`), `no session log lock; stderr: ${stderr}`).toBe(true);
    const baseline = rss(child.pid!);
    send(2, 'session/send', { sessionId: 'bp', prompt: 'talk a lot' });
    let peak = baseline;
    const deadline = Date.now() + 90_000;
    // Until the run ended in its log and the events have been pumped out (or dropped).
    for (let settledFor = 0; settledFor < 5 && Date.now() < deadline; ) {
      await sleep(100);
      peak = Math.max(peak, rss(child.pid!));
      if (existsSync(logPath) && readFileSync(logPath, 'utf8').includes('"run.ended"')) settledFor++;
    }
    expect(Date.now()).toBeLessThan(deadline);
    send(3, 'session/list', {});
    await sleep(300);
    peak = Math.max(peak, rss(child.pid!));
    // Unbounded, the notifications (and their write requests) sit in the server: 70 MB of them grew
    // it by over 270 MiB when measured. Bounded, it grows by what a run's turn churns (about 120 MiB).
    // What proves the bound is the count of dropped events below; this is the memory's sanity bound.
    expect(peak - baseline, `baseline ${baseline / MiB} MiB, peak ${peak / MiB} MiB`).toBeLessThan(200 * MiB);

    // Now the client reads: every response, the notice, the run/result, in a valid order.
    const messages: Message[] = [];
    const invalid: unknown[] = [];
    const validate = schemaValidator();
    const lines = createInterface({ input: child.stdout! });
    const done = new Promise<void>((resolve) =>
      lines.on('line', (line) => {
        const m = JSON.parse(line) as Message;
        if (!validate(m)) invalid.push(validate.errors);
        messages.push(m);
        if (messages.some((x) => x.id === 3) && messages.some((x) => x.method === 'run/result')) resolve();
      }),
    );
    await Promise.race([done, sleep(30_000)]);
    expect(invalid).toEqual([]);
    const ids = messages.filter((m) => m.id !== undefined).map((m) => [m.id, m.error?.message ?? 'ok']);
    expect(ids).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
    ]);
    const runId = messages.find((m) => m.id === 2)!.result!.runId as string;
    const methods = messages.filter((m) => m.method !== undefined);
    const notices = methods
      .filter((m) => m.method === 'run/eventsDropped')
      .map((m) => m.params as { runId: string; dropped: number; firstSequence: number; lastSequence: number });
    expect(notices.length).toBeGreaterThanOrEqual(1);
    for (const n of notices) {
      expect(n).toMatchObject({ sessionId: 'bp', runId });
      expect(n.lastSequence - n.firstSequence + 1).toBe(n.dropped);
    }
    const events = methods
      .filter((m) => m.method === 'event')
      .map((m) => m.params as { metadata: { sequence: number } });
    // Every event was either sent or counted in a notice, each once, in sequence order.
    const sequences = events.map((e) => e.metadata.sequence);
    const counted = notices.flatMap((n) => Array.from({ length: n.dropped }, (_, i) => n.firstSequence + i));
    const all = [...sequences, ...counted].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(counted.length).toBeGreaterThan(words * 2);
    // The run/result is never dropped, and comes last for the run.
    const result = methods.at(-1)!;
    expect(result.method).toBe('run/result');
    expect(result.params).toMatchObject({ runId, status: 'completed', text: 'All read.', toolCalls: 4 });
    child.stdin!.end();
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    expect(stderr).toBe('');
  }, 120_000);
});
