// eval kernels and their callers, through a session with scripted models and real kernels: a vibe
// worker's or a sub-agent's cells run in kernels of their own (nothing they leave there reaches the
// lead's cells or runs under the lead's authority), the lead's cells share theirs across its turns,
// and a tool() call a cell did not wait for ends with the cell.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmClient } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the crash test's child process.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { gone, tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(model: LlmClient, options: SessionOptions) {
  const dir = tempRepo();
  const session = await (await Agent.create({ model })).session(dir, options);
  opened.push(session);
  return { dir, session };
}

const evalCall = (id: string, code: string, language: 'python' | 'javascript' = 'python') => ({
  tool_calls: [{ id, name: 'eval', args: { description: 'run a cell for the task here', language, code } }],
});
/** The outputs of the session's `tool.result` facts, by call id. */
const outputs = (session: Session) =>
  Object.fromEntries(
    session.core.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => {
        const p = f.payload as { tool_call_id: string; output: unknown };
        return [p.tool_call_id, String(p.output)];
      }),
  );
/** The outputs of the `tool.result` facts in the log of a child thread (`task-1`, `worker-1`). */
function childOutputs(dir: string, thread: string): Record<string, string> {
  const file = readdirSync(join(dir, '.a3s', 'effect-log')).find((f) => f.endsWith(`.${thread}.jsonl`));
  return Object.fromEntries(
    readFileSync(join(dir, '.a3s', 'effect-log', file!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> })
      .filter((f) => f.type === 'tool.result')
      .map((f) => [f.payload.tool_call_id as string, String(f.payload.output)]),
  );
}

/** True while a `sleep <arg>` process runs on the machine. */
function sleeping(arg: string): boolean {
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${arg}\0` && !gone(Number(p))) return true;
    } catch {
      // gone while listing
    }
  }
  return false;
}

describe('eval: kernels kept apart per caller', () => {
  it("a worker's timer in its kernel never calls tools through the lead's cells, nor sees or touches the lead's state", async () => {
    const plant = [
      "globalThis.secret = 'worker'; globalThis.log = [];",
      "setInterval(() => tool('task', { agent: 'general', description: 'started by the worker timer', prompt: 'ESCAPED' }).then((o) => log.push('ok ' + o), (e) => log.push(String(e.message).slice(0, 80))), 200);",
      "'planted'",
    ].join('\n');
    const read = `await new Promise((r) => setTimeout(r, 1000)); JSON.stringify({ log: globalThis.log ?? null, secret: globalThis.secret ?? null })`;
    const model = new RoutingModel('m', {
      LEAD: [
        { tool_calls: [{ id: 's1', name: 'vibe_spawn', args: { brief: 'WORKER', label: 'w' } }] },
        { tool_calls: [{ id: 'w1', name: 'vibe_wait', args: { worker_id: 'worker-1' } }] },
        evalCall('e1', read, 'javascript'),
        { text: 'done' },
      ],
      WORKER: [evalCall('we', plant, 'javascript'), { delay_ms: 600, text: 'worker done' }],
      ESCAPED: Array.from({ length: 8 }, () => ({ text: 'escaped sub-agent ran' })),
    }) as LlmClient & { clients: Map<string, ScriptedLlmClient> };
    const { session, dir } = await open(model, { vibe: true, permissions: { allow: ['eval', 'task'] } });
    await session.send('LEAD').catch(() => undefined);
    expect(childOutputs(dir, 'worker-1').we).toBe("'planted'");
    expect(outputs(session).e1).toBe(`'{"log":null,"secret":null}'`);
    expect(model.clients.get('ESCAPED')!.requests).toHaveLength(0);
  }, 90_000);

  const SLEEP = `${600 + Math.floor(Math.random() * 1000)}.${process.pid}`;
  it("a sub-agent's cells run in a kernel of its own, gone when it ends; the lead's state lasts across its turns", async () => {
    const model = new RoutingModel('m', {
      LEAD: [
        evalCall('e1', "secret = 'lead'"),
        {
          tool_calls: [
            { id: 't1', name: 'task', args: { agent: 'general', description: 'look at the kernel', prompt: 'CHILD' } },
          ],
        },
        { text: 'first turn done' },
        evalCall('e2', 'secret'),
        { text: 'second turn done' },
      ],
      CHILD: [
        evalCall('c1', `import subprocess\nsubprocess.Popen(['sleep', '${SLEEP}'])\nglobals().get('secret', 'unset')`),
        { text: 'child done' },
      ],
    }) as LlmClient;
    const { session, dir } = await open(model, {
      permissions: { allow: ['eval', 'task'] },
      gate: { continuation: { enabled: false } },
    });
    await session.send('LEAD');
    expect(childOutputs(dir, 'task-1').c1).toBe("'unset'");
    // The child's kernel is killed with what it started when the child ends (a moment later).
    for (let i = 0; i < 50 && sleeping(SLEEP); i++) await new Promise((r) => setTimeout(r, 100));
    expect(sleeping(SLEEP)).toBe(false);
    await session.send('again');
    expect(outputs(session).e2).toBe("'lead'");
  }, 90_000);
});

describe('eval: a tool() call ends with its cell', () => {
  for (const language of ['javascript', 'python'] as const)
    it(`a ${language} call the cell did not wait for is cancelled when the cell ends and writes nothing later`, async () => {
      // The cell ends once the command runs (it has made STARTED): the cancel then meets a running process.
      const command = 'touch STARTED; sleep 2; echo late > LATE.txt';
      const code =
        language === 'javascript'
          ? `tool('bash', { command: '${command}' });\nconst fs = require('node:fs');\nfor (let i = 0; i < 200 && !fs.existsSync('STARTED'); i++) await new Promise((r) => setTimeout(r, 50));\n'cell done'`
          : `import contextvars, os, threading, time\nthreading.Thread(target=contextvars.copy_context().run, args=(tool, 'bash', {'command': '${command}'}), daemon=True).start()\nfor _ in range(200):\n    if os.path.exists('STARTED'): break\n    time.sleep(0.05)\n'cell done'`;
      const turns: ScriptedTurn[] = [evalCall('e1', code, language), { text: 'done' }, { text: 'done' }];
      const { session, dir } = await open(new ScriptedLlmClient(turns), {
        permissions: { allow: ['eval', 'bash'] },
        gate: { continuation: { enabled: false } },
      });
      await session.send('go').catch(() => undefined);
      expect(outputs(session).e1).toBe(
        "'cell done'\n[1 tool() call was still running when the cell ended and was cancelled: a call ends with its cell, so await it inside the cell]",
      );
      expect(existsSync(join(dir, 'STARTED'))).toBe(true);
      await new Promise((r) => setTimeout(r, 3000));
      expect(existsSync(join(dir, 'LATE.txt'))).toBe(false);
    }, 60_000);
});
