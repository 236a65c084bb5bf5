// A terminal that went away (its window closed, the SSH connection dropped) fails to be read, and
// readline turning raw mode off fails too, with EIO: the reader takes that as the end of the input
// instead of throwing, so the process lives on until its SIGHUP handler has recorded the run as
// cancelled.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../src/interactive/line-reader.js';

const eio = (): NodeJS.ErrnoException => Object.assign(new Error('read EIO'), { code: 'EIO' });

describe('LineReader on a terminal that hung up', () => {
  it('EIO from the input (and from raw mode as it closes) ends the input: the read waiting gets null, nothing thrown', async () => {
    let gone = false;
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      // As tty.ReadStream does on a terminal that is gone: the failure is an `error` event.
      setRawMode(this: PassThrough): PassThrough {
        if (gone) this.emit('error', Object.assign(new Error('setRawMode EIO'), { code: 'EIO' }));
        return this;
      },
    });
    const reader = new LineReader(input, new PassThrough(), true);
    const line = reader.read('› ');
    gone = true;
    expect(() => input.emit('error', eio())).not.toThrow();
    expect(await line).toBeNull();
    expect(await reader.read('› ')).toBeNull();
  });

  it('another error of the input is not swallowed', () => {
    const input = new PassThrough();
    new LineReader(input, new PassThrough(), false);
    expect(() => input.emit('error', Object.assign(new Error('boom'), { code: 'EBADF' }))).toThrow('boom');
  });
});
