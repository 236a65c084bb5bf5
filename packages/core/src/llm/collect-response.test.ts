import { describe, expect, it } from 'vitest';
import { ResponseAccumulator } from './collect-response.js';
import type { LlmToolCall } from './llm-client.js';
import { malformedArgsOf } from './tool-args-text.js';

/** The calls a response holds after `calls` ended, as any client may send them. */
function collected(calls: unknown[]): LlmToolCall[] {
  const acc = new ResponseAccumulator('custom');
  calls.forEach((call, index) => {
    const c = call as LlmToolCall;
    acc.add({ type: 'tool_call_start', index, id: c.id, name: c.name });
    acc.add({ type: 'tool_call_end', index, call: c });
  });
  acc.add({ type: 'finish', reason: 'tool_calls' });
  return [...acc.result().toolCalls];
}

describe('a response collected from any client', () => {
  it('arguments too deep, not an object, or given as text are recorded as what was wrong; a missing name as none a tool has', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const [tooDeep, text, textBad, list, unnamed, fine] = collected([
      { id: 'a', name: 'write', args: { extra: deep } },
      { id: 'b', name: 'read', args: '{"file_path":"x"}' },
      { id: 'c', name: 'read', args: 'not json' },
      { id: 'd', name: 'read', args: ['x'] },
      { id: 'e', name: '', args: {} },
      { id: 'f', name: 'read', args: { file_path: 'x' } },
    ]);
    expect(malformedArgsOf(tooDeep!.args)?.problem).toMatch(/nested/);
    expect(text!.args).toEqual({ file_path: 'x' });
    expect(malformedArgsOf(textBad!.args)?.problem).toMatch(/not valid JSON/);
    expect(malformedArgsOf(list!.args)?.problem).toBe('not a JSON object');
    expect(unnamed!.name).toBe('(no name)');
    expect(fine!.args).toEqual({ file_path: 'x' });
  });
});
