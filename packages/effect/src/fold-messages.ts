// Message builders of the fold (`folder.ts`).
import type { ReasoningBlock, ToolCall } from './kinds.js';
import type { Message } from './state.js';

type Blocks = readonly ReasoningBlock[];

/** An assistant message; `reasoning` only when the turn carried blocks (older logs fold as before). */
export function assistant(text: string, calls: readonly ToolCall[], seq: number, reasoning: Blocks | null): Message {
  return reasoning === null
    ? { role: 'assistant', text, tool_calls: calls, seq }
    : { role: 'assistant', text, tool_calls: calls, seq, reasoning };
}

/** What a message adds to the context size the fold tracks (`context_chars`). */
export function messageChars(m: Message): number {
  if (m.role === 'assistant') {
    let n = m.text.length;
    for (const call of m.tool_calls) n += call.name.length + JSON.stringify(call.args).length;
    return n;
  }
  if (m.role === 'tool') return m.output.length;
  let n = m.text.length;
  // A text file is inlined into the message it came with; images are not counted.
  for (const a of m.attachments ?? []) if (a.media_type === 'text/plain') n += a.size;
  return n;
}
