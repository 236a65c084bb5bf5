import { describe, expect, it } from 'vitest';
import { Facts } from '../test/kit.js';
import { FactValidationError } from './errors.js';
import { encodeFact, parseFactLine, parseLog, validateDraft, type FactDraft } from './fact.js';
import { fold } from './folder.js';
import type { ReasoningBlock } from './kinds.js';

const SIGNED: ReasoningBlock = { text: 'List src first.', signature: 'EqQBCkYIBxgCKkB+/==' };
const REDACTED: ReasoningBlock = { redacted: 'EmwKAhgBEgy3va3pzix' };
const usage = { input_tokens: 10, output_tokens: 5 };
const call = { id: 'c1', name: 'read', args: { path: 'a' }, needs_confirmation: false };

const turn = (reasoning_blocks: unknown): FactDraft => ({
  type: 'model.turn',
  key: 'model-turn:1:0',
  payload: { decision: { kind: 'tool', calls: [call] }, usage, reasoning: 'List src first.', reasoning_blocks },
});

function validationError(draft: FactDraft): FactValidationError {
  try {
    validateDraft(draft);
  } catch (e) {
    expect(e).toBeInstanceOf(FactValidationError);
    return e as FactValidationError;
  }
  throw new Error('expected a FactValidationError');
}

describe('model.turn reasoning_blocks: validation', () => {
  it('accepts signed and redacted blocks, an empty list, and no field at all', () => {
    expect(() => validateDraft(turn([SIGNED, REDACTED]))).not.toThrow();
    expect(() => validateDraft(turn([]))).not.toThrow();
    expect(() =>
      validateDraft({ type: 'model.turn', key: 'k', payload: { decision: { kind: 'text', text: 'hi' }, usage } }),
    ).not.toThrow();
  });

  it.each([
    ['a missing signature', [{ text: 'x' }], 'payload.reasoning_blocks[0].signature'],
    ['a numeric signature', [{ text: 'x', signature: 42 }], 'payload.reasoning_blocks[0].signature'],
    ['an empty signature', [{ text: 'x', signature: '' }], 'payload.reasoning_blocks[0].signature'],
    ['a missing text', [SIGNED, { signature: 's' }], 'payload.reasoning_blocks[1].text'],
    ['empty redacted data', [{ redacted: '' }], 'payload.reasoning_blocks[0].redacted'],
    ['redacted data that is not a string', [{ redacted: 7 }], 'payload.reasoning_blocks[0].redacted'],
    ['a block that is both', [{ redacted: 'd', text: 'x', signature: 's' }], 'payload.reasoning_blocks[0]'],
    ['a block that is not an object', ['thinking'], 'payload.reasoning_blocks[0]'],
    ['a list that is not an array', { text: 'x', signature: 's' }, 'payload.reasoning_blocks'],
  ])('rejects %s, naming the field', (_, blocks, field) => {
    const e = validationError(turn(blocks));
    expect(e.field).toBe(field);
    expect(e.factType).toBe('model.turn');
    expect(e.message).toContain(field);
  });

  it('a logged line with a bad block fails to parse with the same field', () => {
    const line = encodeFact({ seq: 1, cause: null, ...turn([{ text: 'x', signature: null }]) });
    expect(() => parseFactLine(line, 1)).toThrow(/payload\.reasoning_blocks\[0\]\.signature/);
  });
});

describe('model.turn reasoning_blocks: the fold carries them on the assistant message', () => {
  const facts = () =>
    new Facts()
      .user('go')
      .add('model.turn', {
        decision: { kind: 'tool', text: 'Reading.', calls: [call] },
        usage,
        reasoning_blocks: [SIGNED, REDACTED],
      })
      .result('c1')
      .add('model.turn', {
        decision: { kind: 'text', text: 'Done.' },
        usage,
        reasoning_blocks: [{ text: '', signature: 'sig-3' }],
      });

  it('tool and text turns keep their blocks in order; turns without blocks have no `reasoning`', () => {
    const withEmpty = facts()
      .user('again')
      .add('model.turn', { decision: { kind: 'text', text: 'Ok.' }, usage, reasoning_blocks: [] })
      .text('Plain.');
    const msgs = fold(withEmpty.list).view.messages.filter((m) => m.role === 'assistant');
    expect(msgs.map((m) => m.reasoning)).toEqual([
      [SIGNED, REDACTED],
      [{ text: '', signature: 'sig-3' }],
      undefined,
      undefined,
    ]);
    expect(msgs[2]).not.toHaveProperty('reasoning');
    expect(msgs[3]).not.toHaveProperty('reasoning');
  });

  it('a question turn keeps its blocks too', () => {
    const f = new Facts().user('go').add('model.turn', {
      decision: {
        kind: 'question',
        question_id: 'q',
        question: 'Which?',
        options: [],
        allow_free_text: true,
        multi_select: false,
      },
      usage,
      reasoning_blocks: [SIGNED],
    });
    expect(fold(f.list).view.messages[1]).toMatchObject({ role: 'assistant', text: 'Which?', reasoning: [SIGNED] });
  });

  it('survives the log encoding and a compaction that keeps the turn, and is not counted in context_chars', () => {
    const text = facts()
      .list.map((f) => `${encodeFact(f)}\n`)
      .join('');
    const parsed = parseLog(text).facts;
    const plain = parsed.map((f) =>
      f.type === 'model.turn' ? { ...f, payload: { ...(f.payload as object), reasoning_blocks: undefined } } : f,
    );
    expect(fold(parsed).view.context_chars).toBe(fold(plain).view.context_chars);
    const compacted = [
      ...parsed,
      {
        seq: parsed.length + 1,
        type: 'compaction.done',
        key: 'compaction:1',
        cause: null,
        payload: { summary: 'S', kept: 3 },
      },
    ];
    const msgs = fold(compacted).view.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(msgs[1]).toMatchObject({ role: 'assistant', reasoning: [SIGNED, REDACTED] });
  });
});
