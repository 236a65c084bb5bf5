import { describe, expect, it } from 'vitest';
import { CallSignal } from './call-signal.js';

describe('CallSignal', () => {
  it('a call that ends aborts the calls nested in it that are still going', () => {
    const run = new AbortController();
    const parent = new CallSignal(run.signal, run.signal);
    const done = new CallSignal(parent, parent);
    done.dispose();
    const going = new CallSignal(parent, parent);
    const nested = new CallSignal(going, going);
    parent.dispose();
    expect(going.aborted).toBe(true);
    expect(nested.aborted).toBe(true);
    expect(going.reason).toMatchObject({ code: 'CANCELLED' });
    expect(String((going.reason as Error).message)).toContain('the call that started it has ended');
    expect(done.aborted).toBe(false);
    // A call nested in one that has ended never starts.
    expect(new CallSignal(parent, run.signal).aborted).toBe(true);
  });

  it("a call's end does not abort its parent or its run", () => {
    const run = new AbortController();
    const parent = new CallSignal(run.signal, run.signal);
    const child = new CallSignal(parent, run.signal);
    child.dispose();
    expect(parent.aborted).toBe(false);
    expect(run.signal.aborted).toBe(false);
    run.abort('stop');
    expect(parent.aborted).toBe(true);
  });
});
