// A cancellation that lands while a command is being set up (after the first check, before the
// command's abort listener exists) stops the command as a later one would: it never runs to its end.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-early-abort-');
afterAll(() => tmp.cleanup());

describe('a command cancelled during its set-up', () => {
  it('is stopped, and what it would have written later is never written', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir });
    const stop = new AbortController();
    const started = Date.now();
    const run = ws.exec!.run({ command: 'sleep 3; touch late.txt', signal: stop.signal });
    // Synchronously after the call: past the check at its start, before its first await ends.
    stop.abort();
    const outcome = await run.then(
      (r) => ({ ok: true as const, exitCode: r.exitCode }),
      (e: unknown) => ({ ok: false as const, error: e }),
    );
    expect(Date.now() - started).toBeLessThan(2_500);
    await new Promise((r) => setTimeout(r, 3_500 - (Date.now() - started)));
    expect(existsSync(join(tmp.dir, 'late.txt'))).toBe(false);
    expect(outcome.ok === false || outcome.exitCode !== 0).toBe(true);
  });
});
