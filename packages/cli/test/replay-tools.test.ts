// `a3s replay` (effect alone), `a3s tools` and `a3s sessions`, in-process through `main(argv, io)`.
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { drafts, effectLogPath, encodeFact, FactLog } from '@a3s-code/effect';
import { Agent } from '@a3s-code/sdk';
import { describe, expect, it } from 'vitest';
import { FIX_TURNS, runMain, scriptFile, tempRepo } from './kit.js';

describe('a3s replay, tools, sessions', () => {
  it('replays a run by session id and by file: timeline, tool table, tokens', async () => {
    const dir = tempRepo();
    const run = await runMain([
      'run',
      '--yolo',
      '--model',
      `scripted:${scriptFile(FIX_TURNS)}`,
      '--cwd',
      dir,
      '--session',
      'fix-1',
      'fix it',
    ]);
    expect(run.status).toBe(0);
    const r = await runMain(['replay', '--cwd', dir, 'fix-1']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/run run-[0-9a-f-]+: completed \(verified\)/);
    expect(r.stdout).toContain('phases: idle@1 → infer@2 → tool@3 → infer@4 → tool@5 → infer@6 → idle@7');
    expect(r.stdout).toContain('tool calls: 2 (2 ok, 0 failed)');
    expect(r.stdout).toMatch(/ {3}1 {2}edit {7}ok/);
    const json = JSON.parse((await runMain(['replay', '--json', `${dir}/.a3s/effect-log/fix-1.jsonl`])).stdout);
    expect(json.summary.tools.by_name.verify).toMatchObject({ calls: 1, ok: 1 });
    expect(await runMain(['replay', '--cwd', dir, 'nope'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("no fact log 'nope'"),
    });

    const sessions = await runMain(['sessions', '--cwd', dir]);
    expect(sessions.stdout).toContain('fix-1');
    expect(sessions.stdout).toContain('1 run(s), last completed (verified)');
    expect(sessions.stdout).toContain('"fix it"');
  });

  it('replay <folder> replays the newest log with facts, not the empty one of a prompt whose attachment was refused', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Hello there.' }])}`;
    expect((await runMain(['run', '--model', model, '--cwd', dir, '--session', 'real', 'hi'])).status).toBe(0);
    // A link inside the workspace to a file outside it: the CLI's early check passes it, the SDK
    // refuses it after the session opened its (still empty) log.
    symlinkSync('/etc/hostname', join(dir, 'host.txt'));
    const refused = await runMain([
      'run',
      '--model',
      model,
      '--cwd',
      dir,
      '--session',
      'empty',
      '--file',
      join(dir, 'host.txt'),
      'hi',
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('ATTACHMENT_INVALID');
    const empty = join(dir, '.a3s', 'effect-log', 'empty.jsonl');
    expect(readFileSync(empty, 'utf8')).toBe('');
    // Newest by its time, whatever the clock's resolution.
    utimesSync(empty, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    const r = await runMain(['replay', dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(join(dir, '.a3s', 'effect-log', 'real.jsonl'));
    expect(r.stdout).toMatch(/run run-[0-9a-f-]+: completed/);
  });

  it('replay marks a call that ran again on resume because the process stopped while it ran', async () => {
    const dir = tempRepo();
    // The log of a run whose process died while its edit ran: the file is edited, the result is missing.
    const log = new FactLog();
    log.append(
      [
        { type: 'run.started', key: 'run:r1', payload: { run_id: 'r1', system: [], tools: [] } },
        { type: 'user.message', key: 'user:r1', payload: { text: 'fix it', source: 'user' } },
      ],
      null,
    );
    const args = { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' };
    const calls = [{ id: 'e1', name: 'edit', args, needs_confirmation: false }];
    log.append(
      [drafts.modelTurn(1, 0, { decision: { kind: 'tool', calls }, usage: { input_tokens: 1, output_tokens: 1 } })],
      'infer:1:0',
    );
    mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
    writeFileSync(join(dir, effectLogPath('crashed')), log.facts.map((f) => `${encodeFact(f)}\n`).join(''));
    const file = join(dir, 'src', 'range.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('i < end', 'i <= end'));
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'Fixed.' }]) });
    const session = await agent.session(dir, {
      sessionId: 'crashed',
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
    });
    await expect(session.resumeRun()).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    await session.close();
    const r = await runMain(['replay', '--cwd', dir, 'crashed']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      / {3}1 {2}edit {7}failed[^\n]*\n {6}↺ re-run on resume: the process stopped while this call ran/,
    );
  });

  it('tools: the surface with tiers and capabilities; plan mode hides write and exec', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([])}`;
    const table = await runMain(['tools', '--model', model, '--cwd', dir]);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^read +read +ro idem resume cancel page par=16 text +fs\.read$/m);
    expect(table.stdout).toMatch(/^bash +exec +par=4 text +exec$/m);
    const plan = JSON.parse((await runMain(['tools', '--json', '--plan', '--model', model, '--cwd', dir])).stdout) as {
      name: string;
      tier: string;
    }[];
    expect(plan.map((t) => t.name)).toEqual([
      'batch',
      'program',
      'ask_user',
      'generate_object',
      'read',
      'grep',
      'glob',
      'ls',
      'web_fetch',
      'web_search',
      'ast_grep',
      'lsp',
      'task',
      'parallel_task',
      'task_result',
      'search_skills',
      'Skill',
      'recall',
      'dynamic_workflow',
    ]);
    // No model is needed to list the surface; the workspace's config file applies.
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['bash'] } }));
    const noModel = await runMain(['tools', '--cwd', dir]);
    expect(noModel.status).toBe(0);
    expect(noModel.stdout).toMatch(/^verify +exec +par=16 text +-$/m);
    expect(noModel.stdout).not.toMatch(/^bash /m);
    expect(existsSync(join(dir, '.a3s'))).toBe(false);
  });
});
