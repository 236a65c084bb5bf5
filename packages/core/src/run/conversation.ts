/**
 * Turns the folded view into a provider request: the fold's messages become `LlmMessage`s (an
 * assistant turn keeps its signed reasoning blocks, for providers that take them back), the
 * offered tools become tool specs (empty once `max_tool_rounds` is reached, with no
 * extra message).
 */
import type { FoldView, Message, ReasoningBlock as ReasoningRecord } from '@a3s-code/effect';
import { attachmentContent, type AttachmentBytes } from '../attachments/attachment-content.js';
import type { LlmMessage, LlmToolSpec, ReasoningBlock } from '../llm/llm-client.js';

/**
 * The conversation of a fold view, as providers take it. A user message's attachments become
 * images and inlined text files when `attachments` holds their bytes (see `loadAttachmentBytes`);
 * otherwise they are mentioned by name (as in a compaction request).
 */
export function toLlmMessages(messages: readonly Message[], attachments?: AttachmentBytes): LlmMessage[] {
  return messages.map((m): LlmMessage => {
    if (m.role === 'assistant') {
      const reasoning = m.reasoning && m.reasoning.length > 0 ? { reasoning: m.reasoning.map(toLlmReasoning) } : {};
      return m.tool_calls.length === 0
        ? { role: 'assistant', content: m.text, ...reasoning }
        : {
            role: 'assistant',
            content: m.text,
            toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args })),
            ...reasoning,
          };
    }
    if (m.role === 'tool')
      return {
        role: 'tool',
        toolCallId: m.tool_call_id,
        name: m.name,
        content: m.output,
        ...(m.ok ? {} : { isError: true }),
      };
    if (m.source === 'summary') return { role: 'user', content: `Summary of the conversation so far:\n${m.text}` };
    if (m.attachments !== undefined && m.attachments.length > 0) {
      const { content, images } = attachmentContent(m.text, m.attachments, attachments);
      return images.length > 0 ? { role: 'user', content, images } : { role: 'user', content };
    }
    return { role: 'user', content: m.text };
  });
}

/** A logged reasoning block as a provider block (a fresh object, fields unchanged). */
export function toLlmReasoning(b: ReasoningRecord): ReasoningBlock {
  return 'redacted' in b ? { redacted: b.redacted } : { text: b.text, signature: b.signature };
}

/** A provider reasoning block as the `model.turn` payload records it (`reasoning_blocks`). */
export function toReasoningRecord(b: ReasoningBlock): ReasoningRecord {
  return 'redacted' in b ? { redacted: b.redacted } : { text: b.text, signature: b.signature };
}

/** The tools of the next request: exactly the fold's `offered_tools`. */
export function toLlmTools(view: FoldView): LlmToolSpec[] {
  return view.offered_tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
}
