import { describe, expect, it } from 'vitest';
import { MAX_CALL_ARGS_CHARS, MAX_PENDING_ARGS_CHARS } from './call-size.js';
import { programHarness } from './test-support/program-harness.js';

const run = (body: string) => `async function run(ctx, inputs) {\n${body}\n}\n`;
const MIB = 1024 * 1024;

// A string the script holds once costs the VM its size once, but each call copies it to the host,
// which keeps it until it answers: the host, not the VM, would run out of memory.
describe('program: the size of the calls a script sends', () => {
  it('a call whose arguments pass 16 Mi characters throws in the script (which can catch it); nothing runs', async () => {
    const h = programHarness();
    const r = await h.run({
      source: run(`
        const s = 'x'.repeat(${MAX_CALL_ARGS_CHARS + 1});
        try { await ctx.tool('echo', { text: s }); return 'sent'; }
        catch (e) { return [e.code, e.message]; }`),
      limits: { memory_limit_bytes: 256 * MIB },
    });
    expect(r.error).toBeUndefined();
    const [code, message] = JSON.parse(r.output) as [string, string];
    expect(code).toBe('PROGRAM_CALL_TOO_LARGE');
    expect(message).toMatch(
      /^ctx\.tool: the call's arguments are 16\.0 Mi characters of JSON; one call takes at most 16\.0 Mi/,
    );
    expect(h.state.executions.filter((e) => e.tool === 'echo')).toHaveLength(0);
  });

  it('calls started at once may hold 64 Mi characters together; the one past it throws, the others run', async () => {
    const h = programHarness();
    const each = 15 * MIB;
    const fit = Math.floor(MAX_PENDING_ARGS_CHARS / (each + 20));
    const r = await h.run({
      source: run(`
        const s = 'y'.repeat(${each});
        const started = [];
        let refused;
        for (let i = 0; i < ${fit + 3}; i++) {
          try { started.push(ctx.tool('echo', { text: s })); }
          catch (e) { refused = [i, e.code, e.message]; break; }
        }
        await Promise.all(started);
        const after = await ctx.tool('echo', { text: s.slice(0, 10) });
        return [started.length, refused, typeof after];`),
      limits: { memory_limit_bytes: 256 * MIB, max_tool_calls: 20 },
    });
    expect(r.error).toBeUndefined();
    const [started, refused] = JSON.parse(r.output) as [number, [number, string, string]];
    expect(started).toBe(fit);
    expect(refused[0]).toBe(fit);
    expect(refused[1]).toBe('PROGRAM_CALL_TOO_LARGE');
    expect(refused[2]).toMatch(/may hold at most 64\.0 Mi \(await some before starting more\)/);
    // Once those were answered, calls go on.
    expect(h.state.executions.filter((e) => e.tool === 'echo')).toHaveLength(fit + 1);
  });
});
