import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { effectLogPath, threadIdFor } from './thread.js';

describe('threadIdFor', () => {
  it('LOG-06: a safe id of allowed characters is used unchanged', () => {
    expect(threadIdFor('session-1')).toBe('session-1');
    expect(threadIdFor('A.b_c:d-9')).toBe('A.b_c:d-9');
  });

  it('LOG-07: any other id maps to s-<hex of SHA-256>', () => {
    const id = 'has space';
    expect(threadIdFor(id)).toBe(`s-${createHash('sha256').update(id).digest('hex')}`);
    expect(threadIdFor('')).toMatch(/^s-[0-9a-f]{64}$/);
    expect(threadIdFor('naïve')).toMatch(/^s-[0-9a-f]{64}$/);
  });

  it('LOG-08: the mapping is stable across calls (and processes: it is a pure hash)', () => {
    const id = 'user@example.com/session';
    expect(threadIdFor(id)).toBe(threadIdFor(id));
    expect(threadIdFor(id)).toBe(`s-${createHash('sha256').update(id).digest('hex')}`);
  });

  it('LOG-09: 128 chars stay, 129 chars hash, "/" and " " hash, "." and ".." hash', () => {
    const ok = 'a'.repeat(128);
    expect(threadIdFor(ok)).toBe(ok);
    expect(threadIdFor('a'.repeat(129))).toMatch(/^s-[0-9a-f]{64}$/);
    for (const bad of ['../etc/passwd', 'a/b', 'a b', '.', '..', 'a\\b', 'a\nb']) {
      const t = threadIdFor(bad);
      expect(t).toMatch(/^s-[0-9a-f]{64}$/);
      expect(t).not.toContain('/');
    }
  });
});

describe('effectLogPath', () => {
  it('LOG-05: a session log lives at .a3s/effect-log/<thread>.jsonl', () => {
    expect(effectLogPath('s1')).toBe('.a3s/effect-log/s1.jsonl');
    expect(effectLogPath('../../x')).toMatch(/^\.a3s\/effect-log\/s-[0-9a-f]{64}\.jsonl$/);
  });
});
