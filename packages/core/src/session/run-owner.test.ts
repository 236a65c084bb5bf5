import { describe, expect, it } from 'vitest';
import { SessionGate } from '../gate/session-gate.js';
import { runOwnerLookup } from './run-owner.js';

describe('runOwnerLookup', () => {
  it("tells the session's runs from a child's while it goes, and knows no other", async () => {
    const gate = new SessionGate(
      () => [],
      () => undefined,
    );
    let active: string | null = 'run-lead';
    const ownerOf = runOwnerLookup('s1', () => active, gate);
    expect(ownerOf('run-lead')).toEqual({ kind: 'session' });
    expect(ownerOf('host:s1')).toEqual({ kind: 'session' });
    expect(ownerOf('run-other')).toBeUndefined();
    expect(ownerOf('')).toBeUndefined();
    const unadopt = gate.adopt(
      'run-child',
      new SessionGate(
        () => [],
        () => undefined,
      ),
    );
    const child = ownerOf('run-child');
    expect(child).toMatchObject({ kind: 'child', runId: 'run-child' });
    let ended = false;
    void (child as { ended: Promise<void> }).ended.then(() => (ended = true));
    active = null;
    expect(ownerOf('run-lead')).toBeUndefined();
    unadopt();
    await Promise.resolve();
    expect(ended).toBe(true);
    expect(ownerOf('run-child')).toBeUndefined();
  });
});
