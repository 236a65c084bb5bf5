// The Python client (clients/python, standard library only) end to end: its unittest suite runs
// with the system python3 against the built `a3s serve`. Skipped, saying so, without python3 ≥ 3.10.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S } from './kit.js';

const client = join(import.meta.dirname, '..', '..', '..', 'clients', 'python');
const probe = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 10))'], { encoding: 'utf8' });
const python = probe.status === 0 && probe.stdout.trim() === 'True';

/** The client's whole unittest suite, run once (verbose) for the tests below. */
let suite: SpawnSyncReturns<string> | undefined;
function clientSuite(): SpawnSyncReturns<string> {
  const env = { ...process.env };
  delete env.A3S_MODEL;
  suite ??= spawnSync(
    'python3',
    ['-W', 'error::ResourceWarning', '-m', 'unittest', 'discover', '-s', join(client, 'tests'), '-v'],
    {
      encoding: 'utf8',
      env: { ...env, PYTHONPATH: join(client, 'src'), A3S_SERVE_COMMAND: `"${process.execPath}" "${A3S}" serve` },
      timeout: 120_000,
    },
  );
  return suite;
}

describe('clients/python against a3s serve', () => {
  it.skipIf(!python)(
    'unittest: open, send, iterate events, answer a confirmation and a question by callback, interrupt, two sessions, errors, kill and resume, verdicts, dropped events',
    () => {
      const r = clientSuite();
      expect(r.stderr).toMatch(/Ran 12 tests/);
      expect(r.stderr).not.toMatch(/skipped/);
      expect(r.status, r.stderr).toBe(0);
    },
    150_000,
  );
  it.skipIf(!python)(
    'BUD-08: open_session(max_tool_rounds=1) caps the tool rounds of a turn: the second round is offered no tools',
    () => {
      // Its verdict in the same run of the suite.
      expect(clientSuite().stderr).toMatch(
        /^test_max_tool_rounds_caps_the_tool_rounds_of_a_turn \(test_client\.ClientTest\.test_max_tool_rounds_caps_the_tool_rounds_of_a_turn\) \.\.\. ok$/m,
      );
    },
    150_000,
  );
  it.skipIf(!python)(
    'on_confirm returning anything but a bool or (bool, reason) refuses the call and raises TypeError; run/eventsDropped reaches its run',
    () => {
      const { stderr } = clientSuite();
      for (const test of [
        'test_a_verdict_that_is_not_a_bool_refuses_the_call_and_raises',
        'test_bool_and_bool_reason_tuples_are_verdicts',
        'test_run_events_dropped_reaches_the_run',
      ])
        expect(stderr).toMatch(
          new RegExp(`^${test} \\(test_verdicts_and_drops\\.\\w+\\.${test}\\) \\.\\.\\. ok$`, 'm'),
        );
    },
    150_000,
  );
  if (!python) it.skip('python3 >= 3.10 is not installed: the Python client test is skipped', () => undefined);
});
