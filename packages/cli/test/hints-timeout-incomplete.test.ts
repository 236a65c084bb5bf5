// The `hint:` lines after a model call that timed out (LLM_TIMEOUT) or found the quota used up, and after a run that changed
// the workspace without a passing verify (COMPLETION_INCOMPLETE): what a CLI user can check or do
// next, naming only settings that exist.
import { LlmError } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { hintsFor } from '../src/hints.js';
import { a3s, runMain, scriptFile, tempRepo } from './kit.js';

describe('LLM_TIMEOUT', () => {
  it("names the provider's base URL, the network, and that the CLI has no setting for the limits", () => {
    const [hint] = hintsFor(
      'run',
      new LlmError('timeout', 'openai: the request timed out (no progress for 120000 ms)', { provider: 'openai' }),
    );
    expect(hint).toContain('openai did not answer in time, and the retries timed out as well');
    expect(hint).toContain('OPENAI_BASE_URL, else "providers": { "openai": { "baseUrl": … } } in a3s.config.json');
    expect(hint).toContain('the network');
    expect(hint).toContain("an SDK program can set the provider client's connectTimeoutMs and idleTimeoutMs");
  });

  it('a run whose model times out ends with the hint', async () => {
    const timeouts = Array.from({ length: 5 }, () => ({ error: { kind: 'timeout' } }));
    const r = await runMain(['run', '--model', `scripted:${scriptFile(timeouts)}`, '--cwd', tempRepo(), 'hi']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^run failed: LLM_TIMEOUT: .*\nhint: the model did not answer in time/m);
  });
});

describe('LLM_RATE_LIMITED with a used-up quota', () => {
  it('says it is a billing state, not a rate limit, and what to do', () => {
    const [hint] = hintsFor(
      'run',
      new LlmError(
        'rate_limited',
        "openai: HTTP 429: You exceeded your current quota (the account's quota is used up: …)",
        {
          provider: 'openai',
          status: 429,
          providerCode: 'insufficient_quota',
        },
      ),
    );
    expect(hint).toContain('account has no quota left (a billing state, not a rate limit)');
  });
});

describe('COMPLETION_INCOMPLETE', () => {
  it('says the changes are kept, how to continue the session and ask for a verify, and the gate keys', async () => {
    const dir = tempRepo();
    const turns = [
      { text: 'Writing.', tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'a.txt', content: 'x' } }] },
      ...Array.from({ length: 4 }, () => ({ text: 'Done.' })),
    ];
    const model = `scripted:${scriptFile(turns)}`;
    const r = await runMain(['run', '--yolo', '--model', model, '--cwd', dir, 'write it']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `\\nhint: the model changed the workspace but no passing verify covered the change, .*the changes stay in the workspace \\(git diff shows them\\): continue the session \\(a3s sessions --resume session-[0-9a-f-]+ --cwd \\S+ --model ${model.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) and ask the model to check its work with the verify tool`,
      ),
    );
    expect(r.stderr).toContain(
      'hint: in a3s.config.json, "gate": { "continuation": { "maxTurns": 10 } } gives the model more turns to verify',
    );
    const code = hintsFor('code', { code: 'COMPLETION_INCOMPLETE', message: 'x' });
    expect(code[0]).toContain('type a prompt that asks it to check its work with the verify tool');
  });

  it('the error line of a3s run and a3s code names no SDK-only remedy (verifyCommands, a waiver)', async () => {
    const turns = [
      { text: 'Writing.', tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'a.txt', content: 'x' } }] },
      ...Array.from({ length: 4 }, () => ({ text: 'Done.' })),
    ];
    const model = `scripted:${scriptFile(turns)}`;
    const run = await runMain(['run', '--yolo', '--model', model, '--cwd', tempRepo(), 'write it']);
    const code = a3s(['code', '--yolo', '--model', model, '--cwd', tempRepo()], { NO_COLOR: '1' }, 'write it\n');
    for (const r of [run, code]) {
      expect(r.stderr).toMatch(
        /COMPLETION_INCOMPLETE: the run changed the workspace but cannot complete: the changes have not been verified \(effect digest [0-9a-f]{12}…\)\n/,
      );
      expect(r.stderr).not.toMatch(/verifyCommands|waive/);
      expect(r.status).toBe(1);
    }
  });
});
