import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filePack } from '../../test/gate-kit.js';
import { workspace, closeAfterEach } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import type { AgentSession } from '../session/agent-session.js';
import type { SessionOptions } from '../session/session-options.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import type { VerificationReport } from './verification-report.js';

const { sessions } = closeAfterEach();

async function open(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, options);
  sessions.push(session);
  return { session, model, dir: ws.dir };
}

const write = (content = 'v1'): ScriptedTurn => ({
  tool_calls: [{ name: 'write_file', args: { file_path: 'a.txt', content } }],
});
const verify = (command: string): ScriptedTurn => ({
  tool_calls: [{ name: 'verify', args: { subject: 'the change', commands: [{ id: 'test', kind: 'test', command }] } }],
});
const ended = (s: AgentSession) =>
  s.store.log.facts
    .filter((f) => f.type === 'run.ended')
    .map((f) => f.payload as { status: string; completion: string | null; error?: { code: string } });
const noContinue = { gate: { continuation: { enabled: false } } };

describe('completion gate', () => {
  it('GATE-04/GATE-07: a run that changed nothing completes as narrative, and the model still answers after its tools', async () => {
    const { session, model } = await open([
      { tool_calls: [{ name: 'bash', args: { command: 'echo hi' } }] },
      { text: 'It printed hi.' },
    ]);
    const r = await session.send('say hi');
    expect(r).toMatchObject({ status: 'completed', completion: 'narrative', text: 'It printed hi.' });
    expect(model.requests).toHaveLength(2);
    expect(ended(session)[0]).toMatchObject({ status: 'completed', completion: 'narrative' });
  });

  it('GATE-01/GATE-05/GATE-08: a change with no verification is an error, even when the model claims the tests pass', async () => {
    const { session } = await open([write(), { text: 'Done. All tests pass.' }], noContinue);
    const e = await session.send('change a.txt').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(ended(session)[0]).toMatchObject({ status: 'failed', error: { code: 'COMPLETION_INCOMPLETE' } });
  });

  it('GATE-06: the gate asks the model to continue; after a passed verify the run ends without another provider call', async () => {
    const { session, model } = await open([
      write(),
      { text: 'Done.' },
      verify('node -e "process.exit(0)"'),
      { text: 'never requested' },
    ]);
    const r = await session.send('change a.txt');
    expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(model.requests).toHaveLength(3);
    const continuation = session.store.log.facts.find(
      (f) => f.type === 'user.message' && (f.payload as { source: string }).source === 'continuation',
    );
    expect((continuation!.payload as { text: string }).text).toMatch(/Verify the changes now/);
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: 'user' });
    const [report] = session.verificationReports;
    expect(report).toMatchObject({
      status: 'passed',
      effect_digest: session.changeLedger().digest,
      run_id: r.runId,
      source: 'commands',
    });
  });

  it('GATE-02: a passed report bound to an older digest does not count', async () => {
    const verifyThenWrite: ScriptedTurn = { tool_calls: [...verify('true').tool_calls!, ...write('v2').tool_calls!] };
    const { session } = await open([write('v1'), verifyThenWrite, { text: 'Done.' }], noContinue);
    const e = await session.send('change twice').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((e as Error).message).toMatch(/earlier reports are for other changes/);
    expect(session.verificationReports[0]!.status).toBe('passed');
  });

  it('a failed verification keeps the run incomplete after the continuation turns', async () => {
    const { session, model } = await open([write(), { text: 'Done.' }, verify('exit 3'), { text: 'still done' }], {
      gate: { continuation: { maxTurns: 1 } },
    });
    const e = await session.send('change').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((e as Error).message).toMatch(/latest verification of these changes is 'failed'/);
    expect(model.requests).toHaveLength(4);
  });

  it('GATE-01: a host waiver of exactly the current digest completes the run as waived', async () => {
    const { session } = await open([write(), { text: 'Done.' }], noContinue);
    const s = session.stream('change');
    for await (const ev of s)
      if (ev.type === 'tool_end') session.waiveCompletion(session.changeLedger().digest!, 'docs-only change');
    expect(await s.result).toMatchObject({ status: 'completed', completion: 'waived' });
    expect(() => session.waiveCompletion('abc', 'x')).toThrow(/64-character hex/);
  });

  it('GATE-03: reports from a CompletionAttestor are merged before the decision', async () => {
    const seen: string[] = [];
    const attestor = {
      attest: async ({
        runId,
        ledger,
      }: {
        runId: string;
        ledger: { digest: string | null };
      }): Promise<VerificationReport> => {
        seen.push(ledger.digest!);
        return {
          schema: 'a3s.verification_report.v1',
          id: 'ci-1',
          subject: 'CI',
          status: 'passed',
          checks: [],
          residual_risks: [],
          effect_digest: ledger.digest,
          run_id: runId,
          created_at_ms: 0,
          source: 'attestor',
        };
      },
    };
    const { session } = await open([write(), { text: 'Done.' }], {
      gate: { attestor, continuation: { enabled: false } },
    });
    expect(await session.send('change')).toMatchObject({ completion: 'verified' });
    expect(seen).toEqual([session.changeLedger().digest]);
    expect(session.verificationReports[0]).toMatchObject({ id: 'ci-1', source: 'attestor' });
  });

  it('GATE-03/GATE-02: an attested report for another digest does not count', async () => {
    const attestor = {
      attest: async () => ({
        schema: 'a3s.verification_report.v1' as const,
        id: 'x',
        subject: 'stale',
        status: 'passed' as const,
        checks: [],
        residual_risks: [],
        effect_digest: 'f'.repeat(64),
        run_id: null,
        created_at_ms: 0,
        source: 'attestor' as const,
      }),
    };
    const { session } = await open([write(), { text: 'Done.' }], {
      gate: { attestor, continuation: { enabled: false } },
    });
    await expect(session.send('change')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  });

  it('KERN-02: no recipe can turn the gate or the permission projection off', async () => {
    await expect(open([], { recipe: { completion_gate: false } } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'recipe.completion_gate',
    });
    await expect(open([], { recipe: { permission_projection: false } } as never)).rejects.toThrow(
      /cannot be configured or removed/,
    );
  });
});

describe('verifyCommands', () => {
  it('VERIFY-01/02: runs each command through the kernel and reports checks with evidence, bound to the latest run', async () => {
    const { session } = await open([write(), { text: 'Done.' }], noContinue);
    await session.send('change').catch(() => undefined);
    const report = await session.verifyCommands('release check', [
      { id: 'unit', kind: 'test', description: 'unit tests', command: 'echo ok', required: true, timeoutMs: 120_000 },
      { id: 'lint', kind: 'lint', command: 'echo lint-warn >&2; exit 0', required: false },
    ]);
    expect(report).toMatchObject({
      schema: 'a3s.verification_report.v1',
      subject: 'release check',
      status: 'passed',
      effect_digest: session.changeLedger().digest,
    });
    expect(report.checks.map((c) => [c.id, c.status, c.evidence.exit_code])).toEqual([
      ['unit', 'passed', 0],
      ['lint', 'passed', 0],
    ]);
    expect(report.checks[0]!.evidence.output_tail).toContain('ok');
  });

  it('VERIFY-03/VERIFY-04: a command past its timeout or a failing required command fails the report', async () => {
    const { session } = await open([]);
    const slow = await session.verifyCommands('slow', [{ id: 'sleep', command: 'sleep 5', timeoutMs: 1000 }]);
    expect(slow.status).toBe('failed');
    expect(slow.checks[0]!.evidence.timed_out).toBe(true);
    const failing = await session.verifyCommands('tests', [
      { id: 't', command: 'exit 1', required: true },
      { id: 'u', command: 'true' },
    ]);
    expect(failing.status).toBe('failed');
    const risky = await session.verifyCommands('risky', [{ id: 't', command: 'true' }], {
      residualRisks: ['no browser test'],
    });
    expect(risky.status).toBe('needs_review');
    expect((await session.verifyCommands('none', [])).status).toBe('skipped');
  });

  it('rejects bad commands naming the field', async () => {
    const { session } = await open([]);
    await expect(session.verifyCommands('', [])).rejects.toThrow(/subject/);
    await expect(session.verifyCommands('x', [{ id: 'a', command: '' }])).rejects.toThrow(/commands\[0\]\.command/);
    await expect(session.verifyCommands('x', [{ id: 'a', command: 'true', timeoutMs: 5 }])).rejects.toThrow(
      /commands\[0\]\.timeoutMs/,
    );
    await expect(
      session.verifyCommands('x', [
        { id: 'a', command: 'true' },
        { id: 'a', command: 'true' },
      ]),
    ).rejects.toThrow(/commands\[1\]\.id: duplicates 'a'/);
  });

  it('GATE-01/GATE-06: a sub-agent that changed files and verified them completes verified on its own log, with no further model call', async () => {
    const { session, model, dir } = await open(
      [
        {
          tool_calls: [{ name: 'task', args: { agent: 'general', description: 'change a', prompt: 'Change a.txt.' } }],
        },
        write('child'),
        verify('test -f a.txt'),
        // The parent answers for its children's changes too: it verifies them itself.
        verify('test -f a.txt'),
        { text: 'never requested' },
      ],
      { ...noContinue, sessionId: 'gate-child' },
    );
    const r = await session.send('delegate');
    expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(model.requests).toHaveLength(4);
    const task = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { output: string };
    expect(JSON.parse(task.output)).toMatchObject({ status: 'completed', thread: 'gate-child.task-1' });
    const child = readFileSync(join(dir, '.a3s', 'effect-log', 'gate-child.task-1.jsonl'), 'utf8');
    expect(child.trim().split('\n').at(-1)).toContain('"completion":"verified"');
  });
});
