import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const configError = (field: string) => expect.objectContaining({ code: 'SESSION_CONFIGURATION', field });

describe('the options of a session call', () => {
  it('send(prompt, null) is refused naming options, and leaves the session free for the next send', async () => {
    const { session } = await track(open([{ text: 'after' }]));
    expect(() => session.send('hi', null as never)).toThrow(configError('options'));
    expect(session.activeRunId).toBeNull();
    expect((await session.send('hi')).text).toBe('after');
  });

  it('resumeRun, stream, streamResume and steer refuse a non-object options value and stay usable', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    for (const bad of [null, 5, 'x', () => 1, []])
      for (const call of [
        () => session.resumeRun(undefined, bad as never),
        () => session.stream('hi', bad as never),
        () => session.streamResume(undefined, bad as never),
        () => session.steer('hi', bad as never),
      ])
        expect(call).toThrow(configError('options'));
    expect((await session.send('hi')).text).toBe('ok');
  });

  it('an unknown option (a typo, or a signal runs do not take) is named with the allowed keys, not ignored', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    expect(() => session.send('hi', { atachments: [] } as never)).toThrow(/options\.atachments.*allowed: attachments/);
    expect(() => session.send('hi', { signal: new AbortController().signal } as never)).toThrow(
      configError('options.signal'),
    );
    expect(() => session.stream('hi', { maxPending: 3 } as never)).toThrow(configError('options.maxPending'));
    expect(() => session.resumeRun(undefined, { rebind: 'yes' } as never)).toThrow(configError('options.rebind'));
    expect(() => session.steer('hi', { runID: 'r' } as never)).toThrow(configError('options.runID'));
    expect(session.store.log.facts.filter((f) => f.type === 'user.message')).toHaveLength(0);
    expect((await session.send('hi', {})).text).toBe('ok');
  });
});
