/**
 * Test support: SSE bodies written from each provider's documented stream format, for cases the
 * recordings do not cover (generate_object turns, repairs). Pieces are split mid-token on purpose.
 */

/** An OpenAI Chat Completions stream with text and/or tool calls, usage chunk and `[DONE]`. */
export function openAIStream(turn: {
  text?: string;
  toolCalls?: { id: string; name: string; args: string }[];
  finish?: string;
}): string {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'gpt-test' };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  let out = chunk({ role: 'assistant', content: turn.text === undefined ? null : '' });
  for (const piece of halves(turn.text ?? '')) out += chunk({ content: piece });
  (turn.toolCalls ?? []).forEach((c, index) => {
    out += chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const piece of halves(c.args)) out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  out += chunk({}, turn.finish ?? ((turn.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'));
  out += `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 } })}\n\n`;
  return `${out}data: [DONE]\n\n`;
}

/** An Anthropic Messages stream with text and/or tool_use blocks, ending with `message_stop`. */
export function anthropicStream(turn: {
  text?: string;
  toolCalls?: { id: string; name: string; args: string }[];
  /** The `stop_reason` (by default `tool_use` with tool calls, else `end_turn`). */
  stop?: string;
}): string {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev('message_start', {
    message: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-test',
      stop_reason: null,
      usage: { input_tokens: 40, output_tokens: 1 },
    },
  });
  let index = 0;
  if (turn.text !== undefined) {
    out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of halves(turn.text))
      out += ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    out += ev('content_block_stop', { index });
    index++;
  }
  for (const c of turn.toolCalls ?? []) {
    out += ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    out += ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of halves(c.args))
      out += ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    out += ev('content_block_stop', { index });
    index++;
  }
  const stop = turn.stop ?? ((turn.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn');
  out += ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 15 } });
  return out + ev('message_stop', {});
}

function halves(s: string): string[] {
  if (s.length < 2) return s === '' ? [] : [s];
  const mid = Math.floor(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}
