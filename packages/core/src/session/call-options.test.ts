import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const configError = (field: string) => expect.objectContaining({ code: 'SESSION_CONFIGURATION', field });

describe('the options of a session call', () => {
  it('send(prompt, null) is refused naming options, and leaves the session free for the next send', async () => {
    const { session } = await track(open([{ text: 'after' }]));
    await expect(session.send('hi', null as never)).rejects.toEqual(configError('options'));
    expect(session.activeRunId).toBeNull();
    expect((await session.send('hi')).text).toBe('after');
  });

  it('resumeRun, stream, streamResume and steer refuse a non-object options value and stay usable', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    for (const bad of [null, 5, 'x', () => 1, []]) {
      await expect(session.resumeRun(undefined, bad as never)).rejects.toEqual(configError('options'));
      for (const call of [
        () => session.stream('hi', bad as never),
        () => session.streamResume(undefined, bad as never),
        () => session.steer('hi', bad as never),
      ])
        expect(call).toThrow(configError('options'));
    }
    expect((await session.send('hi')).text).toBe('ok');
  });

  it('an unknown option (a typo) or a signal that is no AbortSignal is named with the allowed keys, not ignored', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    await expect(session.send('hi', { atachments: [] } as never)).rejects.toThrow(
      /options\.atachments.*allowed: attachments/,
    );
    await expect(session.send('hi', { signal: { aborted: false } } as never)).rejects.toEqual(
      configError('options.signal'),
    );
    expect(() => session.stream('hi', { maxPending: 3 } as never)).toThrow(configError('options.maxPending'));
    await expect(session.resumeRun(undefined, { rebind: 'yes' } as never)).rejects.toEqual(
      configError('options.rebind'),
    );
    expect(() => session.steer('hi', { runID: 'r' } as never)).toThrow(configError('options.runID'));
    expect(session.store.log.facts.filter((f) => f.type === 'user.message')).toHaveLength(0);
    expect((await session.send('hi', {})).text).toBe('ok');
  });
});
