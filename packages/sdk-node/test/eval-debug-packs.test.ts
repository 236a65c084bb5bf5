// The eval and debug packs in SDK sessions: on the surface by default and lazy (no kernel, no
// adapter until a call), exec tier (they ask, absent in plan mode), and `resourcePacks` turns
// them off.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentConfig, NO_APPROVER_REASON, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}, agent: Omit<AgentConfig, 'model'> = {}) {
  const dir = tempRepo();
  const session = await (await Agent.create({ ...agent, model: new ScriptedLlmClient(turns) })).session(dir, options);
  opened.push(session);
  return { dir, session };
}
const state = (s: Session, capability: string) => s.core.resources().find((r) => r.capability === capability)?.state;
const facts = (s: Session, type: string) =>
  s.core.store.log.facts.filter((f) => f.type === type).map((f) => f.payload as Record<string, unknown>);
/** The completion gate asks for evidence after an exec-tier call: a passing check ends the run. */
const verified: ScriptedTurn = {
  text: 'Verifying.',
  tool_calls: [
    { id: 'v1', name: 'verify', args: { subject: 'cell', commands: [{ id: 'node', command: 'node --version' }] } },
  ],
};
const cell = (code: string): ScriptedTurn => ({
  text: 'Computing.',
  tool_calls: [
    { id: 'e1', name: 'eval', args: { code, language: 'javascript', description: 'write a marker file from a cell' } },
  ],
});

describe('eval and debug packs in SDK sessions', () => {
  it('TIER-05: eval and debug are listed by default while their resources stay attached, not opened', async () => {
    const { session } = await open([{ text: 'Nothing to do.' }], { governance: { yolo: true } });
    expect(session.toolNames()).toEqual(expect.arrayContaining(['eval', 'debug', 'lsp', 'ast_grep']));
    await session.send('say hi');
    expect([state(session, 'resource.eval'), state(session, 'resource.debug')]).toEqual(['attached', 'attached']);
    const info = session.core.toolDescriptors().filter((t) => t.name === 'eval' || t.name === 'debug');
    expect(info.map((t) => [t.name, t.tier])).toEqual([
      ['eval', 'exec'],
      ['debug', 'exec'],
    ]);
  });

  it('TIER-03: plan mode leaves the exec-tier eval and debug off the schema', async () => {
    const { session } = await open([], { governance: { mode: 'plan' } });
    expect(session.toolNames()).toContain('lsp');
    expect(session.toolNames()).not.toContain('eval');
    expect(session.toolNames()).not.toContain('debug');
  });

  it('EVAL-02: by default an eval call asks; with nobody to approve it is refused and no kernel starts', async () => {
    const { dir, session } = await open([cell("require('node:fs').writeFileSync('MARK', 'x')"), { text: 'never' }]);
    expect(await session.send('compute')).toMatchObject({ status: 'completed', toolCalls: 0 });
    expect(facts(session, 'confirmation.answered')).toEqual([
      expect.objectContaining({ tool_call_id: 'e1', approved: false, reason: NO_APPROVER_REASON }),
    ]);
    expect(existsSync(join(dir, 'MARK'))).toBe(false);
    expect(state(session, 'resource.eval')).toBe('attached');
  });

  it('EVAL-02: an approved eval call runs in the session kernel, opening the resource on first use', async () => {
    const asked: string[] = [];
    const { dir, session } = await open([cell("require('node:fs').writeFileSync('MARK', 'x'); 6 * 7"), verified], {
      onConfirm: async (req) => {
        asked.push(req.toolName);
        return { approved: true };
      },
    });
    expect(await session.send('compute')).toMatchObject({ status: 'completed', endedBy: 'verification' });
    expect(asked[0]).toBe('eval');
    expect(existsSync(join(dir, 'MARK'))).toBe(true);
    expect(facts(session, 'tool.result')[0]).toMatchObject({ name: 'eval', ok: true, output: '42' });
    expect(state(session, 'resource.eval')).toBe('open');
  });

  it('an approved debug call reaches the session debug supervisor', async () => {
    const { dir, session } = await open(
      // Listing adapters runs nothing: no change, so no verification is needed to complete.
      [{ tool_calls: [{ id: 'd1', name: 'debug', args: { op: 'adapters' } }] }, { text: 'Listed.' }],
      { governance: { yolo: true } },
    );
    writeFileSync(join(dir, 'requirements.txt'), '');
    await session.send('which debuggers?');
    const out = String(facts(session, 'tool.result')[0]?.output);
    expect(out).toMatch(/^dart: unavailable: no root marker/m);
    expect(out).toMatch(/^delve: unavailable: no root marker .*go\.mod/m);
    expect(state(session, 'resource.debug')).toBe('open');
    expect(session.core.state.view.run.status).toBe('completed');
  });

  it('TIER-05: resourcePacks { eval: false, debug: false } leaves both packs out; the others stay', async () => {
    const { session } = await open([], {}, { resourcePacks: { eval: false, debug: false } });
    expect(session.toolNames()).not.toContain('eval');
    expect(session.toolNames()).not.toContain('debug');
    expect(session.toolNames()).toEqual(expect.arrayContaining(['lsp', 'ast_grep']));
    expect(session.core.resources().map((r) => r.capability)).not.toContain('resource.eval');
    const { session: noLsp } = await open([], {}, { resourcePacks: { lsp: false } });
    expect(noLsp.toolNames()).not.toContain('lsp');
    expect(noLsp.toolNames()).toContain('eval');
  });

  it('EVAL-03: a description in a language written without spaces counts its words, not as one', async () => {
    const { session } = await open([], { governance: { yolo: true } });
    const cell = (description: string) => session.tool('eval', { code: '6 * 7', language: 'javascript', description });
    const chinese = await cell('计算两个数字的乘积');
    expect([chinese.exitCode, chinese.output]).toEqual([0, '42']);
    const japanese = await cell('データを読み込んで合計を計算する');
    expect([japanese.exitCode, japanese.output]).toEqual([0, '42']);
    const mixed = await cell('用 Python 计算所有数字的总和');
    expect([mixed.exitCode, mixed.output]).toEqual([0, '42']);
    const short = await cell('计算');
    expect(short.exitCode).toBe(1);
    expect(short.output).toContain('description must be 5 to 10 words (it has 1)');
    const long = await cell('我们现在需要读取所有的数据文件然后计算每一列的平均值和标准差');
    expect(long.output).toMatch(/description must be 5 to 10 words \(it has \d+\)/);
    expect((await cell('multiply six by seven here')).output).toBe('42');
  });

  it('EVAL-01: a cell cancelled mid-run gives way to the next call, which starts a fresh kernel and says the state is lost', async () => {
    const { session } = await open([], { governance: { yolo: true } });
    for (const [language, keep, endless] of [
      ['python', 'kept = 1', 'while True: pass'],
      ['javascript', 'globalThis.kept = 1', 'while (true) {}'],
    ] as const) {
      const cell = (code: string, signal?: AbortSignal) =>
        session.tool('eval', { code, language, description: 'probe the kernel after a cancel' }, signal && { signal });
      expect((await cell(keep)).exitCode).toBe(0);
      const ac = new AbortController();
      const running = cell(endless, ac.signal);
      setTimeout(() => ac.abort(), 300);
      expect((await running).output).toContain('cancelled');
      // Called at once: the cancelled cell's kernel may still be dying.
      const next = await cell('6 * 7');
      expect([next.exitCode, next.output]).toEqual([
        0,
        `[the previous ${language} kernel had died (signal SIGKILL: its cell was cancelled); a fresh one was started and earlier state is lost]\n42`,
      ]);
    }
  });

  it('EVAL-01: a reopened session says the kernel of its earlier cells is gone; a cell of another language is not told so', async () => {
    const cellsOf = (...cells: [string, 'python' | 'javascript'][]) =>
      new ScriptedLlmClient([
        {
          tool_calls: cells.map(([code, language], i) => ({
            id: `c${i}`,
            name: 'eval',
            args: { code, language, description: 'keep a value in the kernel' },
          })),
        },
        { text: 'Done.' },
      ]);
    const dir = tempRepo();
    const options = { governance: { yolo: true }, gate: { continuation: { enabled: false } } } as const;
    const first = await (await Agent.create({ model: cellsOf(['x = 41', 'python']) })).session(dir, options);
    await first.send('keep x').catch(() => undefined);
    await first.save();
    await first.close();
    const again = await (
      await Agent.create({
        model: cellsOf(['x + 1', 'python'], ['6 * 7', 'javascript'], ['y = 1', 'python'], ['y', 'python']),
      })
    ).resumeSession(first.sessionId, { dir, ...options });
    opened.push(again);
    await again.send('use x').catch(() => undefined);
    const outputs = facts(again, 'tool.result').map((r) => r.output);
    expect(outputs[1]).toMatch(
      /^\[the python kernel that ran this session's earlier cells ended when the session was closed \(a kernel lives only while its session is open\); a fresh one was started and earlier state is lost\]\nTraceback[\s\S]*NameError: name 'x' is not defined$/,
    );
    expect(outputs.slice(2)).toEqual(['42', '', '1']);
  });
});
