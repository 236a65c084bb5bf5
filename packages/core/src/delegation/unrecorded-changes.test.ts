// What a sub-agent reports as its changes when it is stopped, or fails, while a call that may
// change the workspace runs (or just after it ran): a change that happened must reach the
// parent's completion gate; a call the child's model only asked for must not count as one.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseLog, threadIdFor } from '@a3s-code/effect';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { childFacts } from '../../test/delegation-kit.js';
import { filePack } from '../../test/gate-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import type { LlmClient, LlmRequest, LlmStreamEvent } from '../llm/llm-client.js';
import { Agent } from '../session/agent.js';
import type { AgentSession } from '../session/agent-session.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { defineTool, defineToolPack } from '../tools/index.js';

const { sessions } = closeAfterEach();

/** A script, and what to wait for before (`before`) or after (`after`) each of its model calls. */
interface Route {
  readonly turns: ScriptedTurn[];
  readonly before?: (request: LlmRequest) => Promise<void>;
  readonly after?: (request: LlmRequest) => Promise<void>;
}

/** Routes each request to the script of the (sub-)agent whose prompt opened the conversation. */
class Router implements LlmClient {
  readonly provider = 'scripted';
  readonly model = 'router';
  readonly capabilities = new ScriptedLlmClient([]).capabilities;
  readonly clients = new Map<string, { client: ScriptedLlmClient; route: Route }>();
  constructor(routes: Record<string, Route>) {
    for (const [k, route] of Object.entries(routes))
      this.clients.set(k, { client: new ScriptedLlmClient(route.turns), route });
  }
  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    const first = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const entry = this.clients.get(String(first));
    if (!entry) throw new Error(`no script for prompt '${String(first)}'`);
    await entry.route.before?.(request);
    yield* entry.client.stream(request);
    await entry.route.after?.(request);
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Resolves when the request's signal aborts (the child was stopped). */
const aborted = (request: LlmRequest) =>
  new Promise<void>((resolve) => {
    if (request.signal?.aborted) resolve();
    else request.signal?.addEventListener('abort', () => resolve(), { once: true });
  });

/**
 * `scribble` (write tier): writes a file, then moves the sub-agent's own fact log aside and puts a
 * folder in its place, so the store can neither append the call's result nor write the log back.
 * `loop` (write tier): writes a file and returns metadata holding a cycle.
 */
function scribblePack(dir: string) {
  const scribble = defineTool({
    name: 'scribble',
    description: 'Write a file.',
    tier: 'write',
    input: z.object({ file_path: z.string() }),
    execute: async ({ file_path }) => {
      writeFileSync(join(dir, file_path), 'scribbled\n');
      const log = join(dir, '.a3s', 'effect-log', `${threadIdFor('unrec')}.task-1.jsonl`);
      renameSync(log, `${log}.saved`);
      mkdirSync(log);
      return { output: 'wrote it', exitCode: 0 };
    },
  });
  const loop = defineTool({
    name: 'loop',
    description: 'Write a file and report oddly.',
    tier: 'write',
    input: z.object({ file_path: z.string() }),
    execute: async ({ file_path }) => {
      writeFileSync(join(dir, file_path), 'looped\n');
      const metadata: Record<string, unknown> = { changes: [{ path: file_path, action: 'modify' }] };
      metadata.self = metadata;
      return { output: 'wrote it', exitCode: 0, metadata };
    },
  });
  return defineToolPack({ name: 'scribble-test', version: '1.0.0', tools: [scribble, loop] });
}

async function open(routes: Record<string, Route>) {
  const ws = workspace();
  const model = new Router(routes);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir), scribblePack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { sessionId: 'unrec', gate: { continuation: { enabled: false } } });
  sessions.push(session);
  return { session, model, dir: ws.dir };
}

const branch = (prompt: string) => ({ agent: 'general', description: `branch ${prompt}`, prompt });

/** The `metadata.changes` of the parent's result of call `id`. */
function reportedChanges(session: AgentSession, id: string): unknown {
  const f = session.store.log.facts.find(
    (x) => x.type === 'tool.result' && (x.payload as { tool_call_id: string }).tool_call_id === id,
  );
  return (f?.payload as { metadata?: { changes?: unknown } } | undefined)?.metadata?.changes;
}

describe('a sub-agent stopped or failing around a call that may change the workspace', () => {
  it('GATE-01: a child whose run fails after a write call ran, before its result was recorded, still reports that change; the parent cannot complete unverified', async () => {
    const { session, dir } = await open({
      go: {
        turns: [
          { tool_calls: [{ id: 't1', name: 'task', args: branch('scribble') }] },
          { text: 'The sub-agent wrote the file.' },
        ],
      },
      scribble: {
        turns: [{ tool_calls: [{ id: 's1', name: 'scribble', args: { file_path: 'made.txt' } }] }, { text: 'never' }],
      },
    });
    const e = await session.send('go').catch((x: unknown) => x);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    // The child's run failed while it recorded the call's result: the log has no result for it.
    const logPath = join(dir, '.a3s', 'effect-log', `${threadIdFor('unrec')}.task-1.jsonl.saved`);
    const child = parseLog(readFileSync(logPath, 'utf8')).facts;
    expect(child.filter((f) => f.type === 'tool.result')).toEqual([]);
    // Its store refused every append once the log was gone: the log ends with the model's call.
    expect(child.at(-1)).toMatchObject({ type: 'model.turn' });
    // The change the kernel recorded for the call reaches the parent: its run cannot complete unverified.
    expect(reportedChanges(session, 't1')).toEqual([
      { path: '(unknown)', digest_after: expect.stringMatching(/^unknown:s1#/) },
    ]);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'task', path: '(unknown)', digest: expect.stringMatching(/^unknown:s1#/) },
    ]);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  });

  it('a tool whose metadata holds a cycle does not fail the run after it acted: its result is recorded, the cycle named', async () => {
    const { session, dir } = await open({
      go: { turns: [{ tool_calls: [{ id: 'l1', name: 'loop', args: { file_path: 'made.txt' } }] }, { text: 'Done.' }] },
    });
    const e = await session.send('go').catch((x: unknown) => x);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    const result = session.store.log.facts.find((f) => f.type === 'tool.result');
    expect(result?.payload).toMatchObject({ ok: true, metadata: { self: '[circular]' } });
    // The change it reported reaches the gate: the run cannot complete unverified.
    expect(session.changeLedger().entries.map((x) => x.path)).toEqual(['made.txt']);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  });

  it('GATE-01/PTASK-05: a branch cancelled by a failing sibling while its command ran reports the change the command may have made', async () => {
    let dir = '';
    const { session, dir: d } = await open({
      go: {
        turns: [
          { tool_calls: [{ id: 'p1', name: 'parallel_task', args: { tasks: [branch('a'), branch('b')] } }] },
          { text: 'Both branches ran.' },
        ],
      },
      // Fails once the other branch's command has written its file.
      a: {
        turns: [{ error: { kind: 'status', status: 400, message: 'bad request' } }],
        before: () => until(() => existsSync(join(dir, 'made.txt'))),
      },
      b: {
        turns: [{ tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi > made.txt; sleep 30' } }] }],
      },
    });
    dir = d;
    const e = await session.send('go').catch((x: unknown) => x);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    expect(childFacts(dir, 'unrec', 2).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(reportedChanges(session, 'p1')).toEqual([
      { path: '(unknown)', digest_after: expect.stringMatching(/^unknown:b1#/) },
    ]);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  });

  it('GATE-04/PTASK-05: a branch stopped after its model asked for a write that never started reports no change; the parent completes as narrative', async () => {
    let asked = false;
    const { session, dir } = await open({
      go: {
        turns: [
          { tool_calls: [{ id: 'p1', name: 'parallel_task', args: { tasks: [branch('a'), branch('b')] } }] },
          { text: 'Nothing was written.' },
        ],
      },
      // Fails once the other branch's model has asked for its write.
      a: {
        turns: [{ error: { kind: 'status', status: 400, message: 'bad request' } }],
        before: () => until(() => asked),
      },
      // Asks for a write, then its turn ends only once the branch is stopped: the write never starts.
      b: {
        turns: [{ tool_calls: [{ id: 'w1', name: 'write_file', args: { file_path: 'w.txt', content: 'x' } }] }],
        after: (request) => {
          asked = true;
          return aborted(request);
        },
      },
    });
    const r = await session.send('go');
    const child = childFacts(dir, 'unrec', 2);
    const turn = child.find((f) => f.type === 'model.turn')!.payload as { decision: { calls?: { id: string }[] } };
    expect(turn.decision.calls?.map((c) => c.id)).toEqual(['w1']);
    expect(child.filter((f) => f.type === 'tool.result')).toEqual([]);
    expect(child.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(existsSync(join(dir, 'w.txt'))).toBe(false);
    expect(reportedChanges(session, 'p1')).toEqual([]);
    expect(r).toMatchObject({ status: 'completed', completion: 'narrative' });
  });
});
