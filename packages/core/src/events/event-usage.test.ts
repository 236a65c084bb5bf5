import { describe, expect, it } from 'vitest';
import { projectEventV1 } from './event-envelope.js';

describe('usage casing', () => {
  const meta = { run_id: 'r', session_id: 's', sequence: 1, timestamp_ms: 1 };

  it('EVT-04: the projection adds usage in the casing of RunResult.usage; the wire payload keeps snake_case', () => {
    const end = projectEventV1({
      version: 1,
      type: 'agent_end',
      payload: { run_id: 'r', text: 'ok', usage: { input_tokens: 12, output_tokens: 3 }, status: 'completed' },
      metadata: meta,
    });
    expect(end.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
    expect(end.payload.usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    expect(
      projectEventV1({
        version: 1,
        type: 'turn_end',
        payload: { turn: 1, usage: { input_tokens: 5, output_tokens: 1 } },
        metadata: meta,
      }).usage,
    ).toEqual({ inputTokens: 5, outputTokens: 1 });
    expect(projectEventV1({ version: 1, type: 'turn_start', payload: { turn: 1 }, metadata: meta })).not.toHaveProperty(
      'usage',
    );
  });
});
