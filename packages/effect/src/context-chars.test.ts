import { describe, expect, it } from 'vitest';
import { Facts } from '../test/kit.js';
import { Folder, fold } from './folder.js';
import type { FoldState, Message } from './state.js';

// The context size counts a call's arguments as the length of their JSON. It is counted when
// read (the view's `context_chars`, a compaction threshold), so these pin that it is the size of
// the messages the state shows, whenever that state is read.

/** The size as the fold defines it, from the messages themselves. */
function sizeOf(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.role === 'assistant') {
      n += m.text.length;
      for (const c of m.tool_calls) n += c.name.length + JSON.stringify(c.args).length;
    } else if (m.role === 'tool') n += m.output.length;
    else n += m.text.length;
  }
  return n;
}

const facts = () =>
  new Facts()
    .user('go')
    .calls({ id: 'a', args: { file_path: 'src/ключ 🙂.ts', lines: [1, 2, { deep: 'x"y\\z' }] } })
    .result('a', true, 'read', 'x'.repeat(50))
    .calls({ id: 'b', args: { command: 'ls\n-la\u0001' } })
    .result('b', true, 'bash', 'y'.repeat(30))
    .add('compaction.done', { summary: 'Goal: go.', kept: 2, keep_request: true })
    .calls({ id: 'c', args: { pattern: 'é'.repeat(40) } })
    .result('c', true, 'grep', 'z')
    .text('done');

describe('the context size', () => {
  it('is the size of the messages of the state, read at once or after more facts (a compaction too)', () => {
    const list = facts().list;
    const folder = new Folder();
    const states: FoldState[] = [];
    for (const fact of list) {
      folder.apply(fact);
      states.push(folder.state);
    }
    for (const [i, s] of states.entries())
      expect(s.view.context_chars, `after fact ${i + 1}`).toBe(sizeOf(s.view.messages));
    for (let n = 1; n <= list.length; n++) {
      const s = fold(list.slice(0, n));
      expect(s.view.context_chars).toBe(sizeOf(s.view.messages));
      expect({ ...s.view }.context_chars).toBe(s.view.context_chars);
      expect(JSON.parse(JSON.stringify(s.view)).context_chars).toBe(s.view.context_chars);
    }
  });

  it('a call’s arguments alone can pass the character threshold', () => {
    const f = new Facts().user('go').calls({ id: 'a', args: { text: 'w'.repeat(400) } });
    f.result('a', true, 'write', 'ok');
    expect(fold(f.list, { compact_threshold_chars: 400 }).phase).toBe('compact');
    expect(fold(f.list, { compact_threshold_chars: 420 }).phase).toBe('infer');
  });
});
