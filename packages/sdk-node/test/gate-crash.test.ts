// The completion gate across a crash: a process is SIGKILLed while a call that changed the
// workspace is running (its result never reached the log), and another process resumes the run.
// A file-writing call whose tool had returned is reported from its journal, not run again (its
// change counts with its path); a command runs again, exactly once, asked again, and its
// interrupted attempt counts as a change with unknown paths, so the run completes only verified
// (or waived). A sub-agent is taken up from its own log, whose changes count instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { effectLogPath, parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

/** Runs the child on a `scripted:<file.json>` model until a call of `tool` has run, then SIGKILLs it. */
async function killAfter(dir: string, turns: ScriptedTurn[], tool: string): Promise<void> {
  const script = join(mkdtempSync(join(tmpdir(), 'a3s-script-')), 'model.json');
  writeFileSync(script, JSON.stringify({ model: 'crash', turns }));
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'fixtures', 'gate-crash-child.mjs'), dir, script, tool],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!out.includes(`ran ${tool}\n`)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the child never ran ${tool}: ${out}${err}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
}

const facts = (dir: string, thread = 'crashed') =>
  parseLog(readFileSync(join(dir, effectLogPath(thread)), 'utf8')).facts;
const resultOf = (dir: string, callId: string) =>
  facts(dir).find((f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === callId)
    ?.payload as { ok: boolean; metadata: { change_record?: { tool: string; path: string; digest: string }[] } };

async function resume(dir: string, turns: ScriptedTurn[], options: { continuation: boolean }) {
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({ model, manualDelegation: true });
  const session = await agent.session(dir, {
    sessionId: 'crashed',
    governance: { yolo: true },
    gate: { continuation: { enabled: options.continuation } },
  });
  // The child's hook is not part of this process: the run continues under the current capabilities.
  const result = await session.resumeRun(undefined, { rebind: true }).catch((e: unknown) => e);
  await session.close();
  return { result, model };
}

const edit = {
  tool_calls: [
    { id: 'e1', name: 'edit', args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' } },
  ],
};

const append = { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo ran >> log.txt' } }] };

describe('the completion gate after a crash', () => {
  it('RES-04/GATE-01: an edit whose tool returned before the process died is reported from its journal on resume, not run again; the run still needs a verification', async () => {
    const dir = tempRepo();
    await killAfter(dir, [edit], 'edit');
    const fixed = readFileSync(join(dir, 'src', 'range.js'), 'utf8');
    expect(fixed).toContain('i <= end');
    expect(resultOf(dir, 'e1')).toBeUndefined();

    const { result, model } = await resume(dir, [{ text: 'Fixed the bound.' }], { continuation: false });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    // Not run a second time (its old text is gone: it would have failed); its change is known.
    expect(facts(dir).filter((f) => f.type === 'tool.result')).toHaveLength(1);
    expect(resultOf(dir, 'e1')).toMatchObject({ ok: true, metadata: { recovered: true } });
    expect(resultOf(dir, 'e1').metadata.change_record).toEqual([
      { call_id: 'e1', tool: 'edit', path: 'src/range.js', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    ]);
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toBe(fixed);
    expect(JSON.stringify(model.requests[0]!.messages)).not.toMatch(/not found/i);
    expect(facts(dir).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'failed' } });
  }, 30_000);

  it('RES-04: a person resuming is not asked about a journaled edit: nothing runs again, so there is nothing to approve', async () => {
    const dir = tempRepo();
    await killAfter(dir, [edit], 'edit');
    const asked: string[] = [];
    const model = new ScriptedLlmClient([{ text: 'Fixed the bound.' }]);
    const session = await (await Agent.create({ model, manualDelegation: true })).session(dir, {
      sessionId: 'crashed',
      gate: { continuation: { enabled: false } },
      onConfirm: async (req) => {
        asked.push(req.toolName);
        return { approved: true };
      },
    });
    await session.resumeRun(undefined, { rebind: true }).catch((e: unknown) => e);
    await session.close();
    expect(asked).toEqual([]);
    expect(resultOf(dir, 'e1')).toMatchObject({ ok: true, metadata: { recovered: true } });
  }, 30_000);

  it('RES-04/GATE-01: a command the process died running runs once more on resume; its interrupted attempt counts as a change with unknown paths', async () => {
    const dir = tempRepo();
    await killAfter(dir, [append], 'bash');
    expect(readFileSync(join(dir, 'log.txt'), 'utf8')).toBe('ran\n');

    const { result } = await resume(dir, [{ text: 'Logged.' }], { continuation: false });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((result as Error).message).toMatch(/'bash' may have changed before the process stopped while it ran/);
    expect(readFileSync(join(dir, 'log.txt'), 'utf8')).toBe('ran\nran\n');
    expect(resultOf(dir, 'b1').metadata.change_record).toContainEqual(
      expect.objectContaining({
        call_id: 'b1',
        tool: 'bash',
        digest: expect.stringMatching(/^unknown:interrupted:b1#/),
      }),
    );
  }, 30_000);

  it('GATE-05: resumed with nobody to approve, the re-run is refused and the run ends at once, naming the refusal', async () => {
    const dir = tempRepo();
    await killAfter(dir, [append], 'bash');
    const model = new ScriptedLlmClient([{ text: 'Fixed the bound.' }, { text: 'Done.' }, { text: 'Done.' }]);
    const session = await (await Agent.create({ model, manualDelegation: true })).session(dir, {
      sessionId: 'crashed',
    });
    const result = await session.resumeRun(undefined, { rebind: true }).catch((e: unknown) => e);
    await session.close();
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    const message = (result as Error).message;
    expect(message).toMatch(/the re-run of 'bash' \(call b1\) on resume was refused \(not confirmed: no approver\)/);
    expect(message).toMatch(/nobody can give one \(no approver\), so the model is not asked to verify/);
    // No continuation turn was paid for: nobody could approve the verification it would ask for.
    expect(model.requests).toHaveLength(1);
    expect(resultOf(dir, 'b1')).toMatchObject({ ok: false });
    expect(readFileSync(join(dir, 'log.txt'), 'utf8')).toBe('ran\n');
  }, 30_000);

  it('GATE-06: after the resume, a passing verify covers what the interrupted edit did: the run completes verified', async () => {
    const dir = tempRepo();
    await killAfter(dir, [edit], 'edit');
    const verify = {
      tool_calls: [
        {
          id: 'v1',
          name: 'verify',
          args: { subject: 'range fix', commands: [{ id: 'unit', command: 'node --test' }] },
        },
      ],
    };
    const { result, model } = await resume(dir, [{ text: 'Fixed.' }, verify], { continuation: true });
    expect(result).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(model.requests).toHaveLength(2);
  }, 30_000);

  it('GATE-01: a sub-agent that wrote a file when the parent died is taken up from its log, not started again; its write counts, so the parent still needs a verification', async () => {
    const dir = tempRepo();
    const task = {
      tool_calls: [
        { id: 't1', name: 'task', args: { agent: 'general', description: 'note', prompt: 'Write NOTE.md.' } },
      ],
    };
    const write = {
      tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'NOTE.md', content: 'first child\n' } }],
    };
    await killAfter(dir, [task, write], 'write');
    expect(readFileSync(join(dir, 'NOTE.md'), 'utf8')).toBe('first child\n');
    expect(existsSync(join(dir, effectLogPath('crashed.task-1')))).toBe(true);

    // The child's resumed run answers first, then the parent.
    const { result, model } = await resume(dir, [{ text: 'Nothing left to do.' }, { text: 'The note is written.' }], {
      continuation: false,
    });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(model.requests).toHaveLength(2);
    // The same child went on (its conversation holds its own write), and no second child was started.
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Write NOTE.md.');
    expect(existsSync(join(dir, effectLogPath('crashed.task-2')))).toBe(false);
    expect(facts(dir, 'crashed.task-1').filter((f) => f.type === 'run.ended')).toHaveLength(1);
    // The child's own gate holds it too: its write is unverified, so the task failed, naming why.
    const t1 = resultOf(dir, 't1') as ReturnType<typeof resultOf> & { output: string };
    expect(t1.ok).toBe(false);
    expect(JSON.parse(t1.output)).toMatchObject({
      task_id: 'task-1',
      status: 'failed',
      error: { code: 'COMPLETION_INCOMPLETE' },
    });
    // The task's changes are its child's (its write, and the write the crash cut off), not a change
    // with unknown paths standing for the whole task.
    const record = t1.metadata.change_record ?? [];
    expect(record.some((e) => e.path === 'NOTE.md')).toBe(true);
    expect(record.some((e) => e.digest.startsWith('unknown:interrupted:t1#'))).toBe(false);
  }, 30_000);
});
