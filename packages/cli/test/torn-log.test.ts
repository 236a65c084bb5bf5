// A session log whose last line a crash left incomplete: reopening it cuts the line off, keeps
// every complete fact, and says so on stderr (never silently); the SDK reports it as logRepair.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@a3s-code/sdk';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

const TORN = '{"seq":99,"type":"user.message","key":"u9","cause":null,"payload":{"text":"half';

describe('a log with a torn last line', () => {
  it('a3s run --session warns that the incomplete line was cut off, keeps the facts and goes on', async () => {
    const repo = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Hi.' }, { text: 'Again.' }])}`;
    expect((await runMain(['run', '--session', 's1', '--model', model, 'go'], { cwd: repo })).status).toBe(0);
    const log = join(repo, '.a3s', 'effect-log', 's1.jsonl');
    const before = readFileSync(log, 'utf8');
    appendFileSync(log, TORN);
    const again = await runMain(['run', '--session', 's1', '--model', model, 'again'], { cwd: repo });
    expect(again.status, again.stderr).toBe(0);
    const lines = before.split('\n').length;
    expect(again.stderr).toContain(
      `warning: the log of session 's1' ended in an incomplete line (line ${lines}, ${Buffer.byteLength(TORN)} bytes) left by a crash mid-write; it was cut off and every complete fact was kept`,
    );
    const after = readFileSync(log, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after).not.toContain('"half');
    // Opened again with nothing torn: no warning.
    const third = await runMain(['run', '--session', 's1', '--model', `scripted:${scriptFile([{ text: 'x' }])}`, 'x'], {
      cwd: repo,
    });
    expect(third.stderr).not.toContain('incomplete line');
  });

  it('the SDK session reports what opening cut off as logRepair, and null for a clean log', async () => {
    const repo = tempRepo();
    const agent = await Agent.create({ model: `scripted:${scriptFile([{ text: 'Hi.' }])}` });
    const first = await agent.session(repo, { sessionId: 's2' });
    expect(first.logRepair).toBeNull();
    await first.send('go');
    await first.close();
    const size = statSync(first.logPath!).size;
    appendFileSync(first.logPath!, TORN);
    const reopened = await agent.session(repo, { sessionId: 's2' });
    expect(reopened.logRepair).toMatchObject({
      bytesCut: Buffer.byteLength(TORN),
      reason: expect.stringMatching(/JSON/),
    });
    expect(statSync(first.logPath!).size).toBe(size);
    await reopened.close();
    await agent.close();
  });
});
