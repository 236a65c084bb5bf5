// A tool whose input schema does not compile (a pack's or a server's mistake, not the model's)
// fails the call that needs it with INVALID_TOOL_DEFINITION; the run goes on and completes.
import { describe, expect, it } from 'vitest';
import { Agent, defineToolPack, type Tool } from '../src/index.js';
import { createTestToolPack, ScriptedLlmClient } from '../src/testing/index.js';
import { closeAfterEach, workspace } from './session-kit.js';

const { track } = closeAfterEach();

describe('a tool whose input schema does not compile', () => {
  it('fails the call with INVALID_TOOL_DEFINITION naming the tool, never the run', async () => {
    const echo = createTestToolPack().pack.tools.find((t) => t.name === 'echo')!;
    const broken: Tool = {
      ...echo,
      name: 'broken',
      inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '(' } } },
    };
    const ws = workspace();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'b1', name: 'broken', args: { text: 'x' } }] },
      { text: 'carried on' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [defineToolPack({ name: 'broken-pack', version: '1.0.0', tools: [broken] })],
      workspace: ws.services,
      permissions: { defaultDecision: 'allow' },
    });
    const { session } = await track(agent.session(ws.dir).then((s) => ({ session: s })));
    const r = await session.send('call it');
    expect(r.text).toBe('carried on');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
      metadata: { error_code?: string };
    };
    expect(result.ok).toBe(false);
    expect(result.metadata.error_code).toBe('INVALID_TOOL_DEFINITION');
    expect(result.output).toContain("tool 'broken'");
    expect(result.output).toContain('does not compile');
  });
});
