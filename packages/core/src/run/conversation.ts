/**
 * Turns the folded view into a provider request: the fold's messages become `LlmMessage`s, the
 * offered tools become tool specs (empty once `max_tool_rounds` is reached: BUD-09, with no
 * extra message: BUD-10).
 */
import type { FoldView, Message } from '@a3s-code/effect';
import type { LlmMessage, LlmToolSpec } from '../llm/llm-client.js';

/** The conversation of a fold view, as providers take it. */
export function toLlmMessages(messages: readonly Message[]): LlmMessage[] {
  return messages.map((m): LlmMessage => {
    if (m.role === 'assistant') {
      return m.tool_calls.length === 0
        ? { role: 'assistant', content: m.text }
        : { role: 'assistant', content: m.text, toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args })) };
    }
    if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id, name: m.name, content: m.output, ...(m.ok ? {} : { isError: true }) };
    if (m.source === 'summary') return { role: 'user', content: `Summary of the conversation so far:\n${m.text}` };
    return { role: 'user', content: m.text };
  });
}

/** The tools of the next request: exactly the fold's `offered_tools`. */
export function toLlmTools(view: FoldView): LlmToolSpec[] {
  return view.offered_tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
}
