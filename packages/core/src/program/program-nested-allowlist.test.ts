// A program's allowed_tools holds every call its script's calls make in turn: a `batch` of calls
// to tools outside the list is refused call by call (TOOL_NOT_ALLOWED), for a host's program and
// for a model's, with an explicit list and with the default one.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';

const { sessions } = closeAfterEach();

const BATCH = (calls: unknown) => `async function run(ctx) {
  const r = await ctx.tool('batch', { calls: ${JSON.stringify(calls)} });
  return JSON.parse(r.output).results.map((x) => ({ tool: x.tool, ok: x.ok, kind: x.error_kind, output: x.output }));
}`;

describe('allowed_tools holds the calls nested in a program call', () => {
  it("a host program allowed only batch cannot reach echo through batch's calls", async () => {
    const { session, state } = await open([]);
    sessions.push(session);
    const r = await session.tool('program', {
      source: BATCH([{ tool: 'echo', args: { text: 'PWN' } }]),
      allowed_tools: ['batch', 'add'],
    });
    expect(r.ok).toBe(true);
    const [item] = (r.metadata as { result: { tool: string; ok: boolean; kind: string; output: string }[] }).result;
    expect(item).toMatchObject({ tool: 'echo', ok: false, kind: 'blocked' });
    expect(item!.output).toBe(
      "program: tool 'echo' is not in allowed_tools (add, batch): a call nested in a program call (call stack: program > batch) is held to the same list",
    );
    expect(state.executions).toEqual([]);
    // A tool on the list still runs through batch.
    const ok = await session.tool('program', {
      source: BATCH([{ tool: 'add', args: { a: 1, b: 2 } }]),
      allowed_tools: ['batch', 'add'],
    });
    expect((ok.metadata as { result: { ok: boolean }[] }).result).toMatchObject([{ ok: true }]);
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([['add', 'host_nested']]);
  });

  it("a model's program with allowed_tools cannot reach another tool through batch", async () => {
    const source = BATCH([
      { tool: 'echo', args: { text: 'a' } },
      { tool: 'write_note', args: { text: 'PWN' } },
    ]);
    const { session, state, model } = await open([
      { tool_calls: [{ id: 'p1', name: 'program', args: { source, allowed_tools: ['batch', 'echo'] } }] },
      { text: 'done' },
    ]);
    sessions.push(session);
    expect((await session.send('go')).status).toBe('completed');
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([['echo', 'nested']]);
    expect(String(model.requests[1]!.messages.at(-1)!.content)).toContain(
      "tool 'write_note' is not in allowed_tools (batch, echo)",
    );
  });

  it('the default list (the surface without program, dynamic_workflow and parallel_task) holds batch too', async () => {
    const { session, state } = await open([]);
    sessions.push(session);
    const r = await session.tool('program', {
      source: BATCH([
        { tool: 'parallel_task', args: { tasks: [] } },
        { tool: 'echo', args: { text: 'ok' } },
      ]),
    });
    const items = (r.metadata as { result: { tool: string; ok: boolean; kind: string; output: string }[] }).result;
    expect(items[0]).toMatchObject({ tool: 'parallel_task', ok: false, kind: 'blocked' });
    expect(items[0]!.output).toContain("program: tool 'parallel_task' is not in allowed_tools (");
    expect(items[1]).toMatchObject({ tool: 'echo', ok: true });
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
  });
});
