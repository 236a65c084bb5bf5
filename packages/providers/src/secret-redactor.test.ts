import { describe, expect, it } from 'vitest';
import { endpointUrl, splitBaseUrl } from './base-url.js';
import { Redactor } from './secret-redactor.js';

const KEY = 'Zq7Kv9fLmPxR4tWy8BnC3dHsJgE1uQoV';

describe('Redactor rules', () => {
  it('redacts before cutting: a secret straddling the cut leaves no head, and the marker is never cut in half', () => {
    const r = Redactor.of({ apiKey: KEY });
    for (let at = 480; at <= 500; at++) {
      const cut = r.redactAndCut(`${'.'.repeat(at)}${KEY}${'-'.repeat(1000)}`, 500);
      expect(cut).not.toContain(KEY.slice(0, 4));
      expect(cut).toMatch(/…$/);
      expect(cut.replace(/\[REDACTED\]/g, '')).not.toMatch(/[[\]]/);
    }
  });

  it('a head of a secret at the end (or a tail at the start) of a text, as a provider cut leaves it, is removed', () => {
    const r = Redactor.of({ apiKey: KEY });
    expect(r.redact(`key was ${KEY.slice(0, 9)}`)).toBe('key was [REDACTED]');
    expect(r.redact(`${KEY.slice(-6)} was the key`)).toBe('[REDACTED] was the key');
    expect(r.redact('nothing to see')).toBe('nothing to see');
  });

  it('values of 8+ characters go anywhere (also JSON-escaped and percent-encoded); shorter ones only beside their name', () => {
    const r = Redactor.of({
      headers: { 'X-Auth-Token': 'tok"en/ab+cd', 'X-Flag': 'abc', Authorization: 'Bearer Gw7TkNq2Xv5R' },
    });
    expect(r.redact('a tok"en/ab+cd b')).toBe('a [REDACTED] b');
    expect(r.redact(JSON.stringify({ echo: 'tok"en/ab+cd' }))).toBe('{"echo":"[REDACTED]"}');
    expect(r.redact('q=tok%22en%2Fab%2Bcd')).toBe('q=[REDACTED]');
    expect(r.redact('token Gw7TkNq2Xv5R alone')).toBe('token [REDACTED] alone');
    expect(r.redact('X-Flag: abc, "x-flag":"abc", x-flag=abc, x-flag: ["abc"]; abc stays')).toBe(
      'X-Flag: [REDACTED], "x-flag":"[REDACTED]", x-flag=[REDACTED], x-flag: ["[REDACTED]"]; abc stays',
    );
  });
});

describe('base URLs with a query', () => {
  it('appends endpoint paths before the query and shows query values as [REDACTED]', () => {
    const b = splitBaseUrl('https://gw.example/openai/v1/?api-version=2024-10-01&key=a%2Bb#frag');
    expect(endpointUrl(b, '/chat/completions')).toBe(
      'https://gw.example/openai/v1/chat/completions?api-version=2024-10-01&key=a%2Bb',
    );
    expect(b.display).toBe('https://gw.example/openai/v1?api-version=[REDACTED]&key=[REDACTED]');
    expect(b.secrets.map((s) => s.value)).toEqual(['2024-10-01', 'a%2Bb', 'a+b']);
  });
});
