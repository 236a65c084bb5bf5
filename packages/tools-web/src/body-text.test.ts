import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { bodyText, charsetOf } from './body-text.js';
import { createWebFetchTool } from './web-fetch-tool.js';
import { WebError } from './web-errors.js';
import { loopbackServer, type LoopbackServer, type Route } from './test-support/loopback-server.js';

const latin1Cafe = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
const send =
  (headers: Record<string, string>, body: Buffer): Route =>
  (_req, res) => {
    res.removeHeader('content-type');
    res.writeHead(200, headers).end(body);
  };
const PARAGRAPH = 'This paragraph is long enough for the article extractor to keep it as the content of the page.';

/** HTML pages without a single element, and the text each fetches as. */
const ELEMENTLESS: Record<string, string> = {
  empty: '',
  space: '   \n\t ',
  words: 'plain words',
  comment: '<!-- only a comment -->',
  doctype: '<!doctype html>',
};
const ELEMENTLESS_TEXT: Record<string, string> = {
  empty: '',
  space: '',
  words: 'plain words',
  comment: '',
  doctype: '',
};

let server: LoopbackServer;
beforeAll(async () => {
  server = await loopbackServer({
    '/quoted-charset': send({ 'content-type': 'text/plain; charset="iso-8859-1"' }, latin1Cafe),
    '/meta-charset': send(
      { 'content-type': 'text/html' },
      Buffer.concat([
        Buffer.from(`<html><head><meta charset="windows-1252"><title>t</title></head><body><p>${PARAGRAPH} caf`),
        Buffer.from([0xe9]),
        Buffer.from('</p></body></html>'),
      ]),
    ),
    '/utf16-bom': send(
      { 'content-type': 'text/plain' },
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello ünïcode', 'utf16le')]),
    ),
    '/png-as-text': send(
      { 'content-type': 'text/plain' },
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    ),
    '/png-untyped': send({}, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])),
    '/zeros-as-json': send({ 'content-type': 'application/json' }, Buffer.alloc(4096)),
    '/plain': send({ 'content-type': 'text/plain' }, Buffer.from('tabs\tand\r\nform\ffeeds are text\n')),
    ...Object.fromEntries(
      Object.entries(ELEMENTLESS).map(([name, body]) => [
        `/html-${name}`,
        send({ 'content-type': 'text/html' }, Buffer.from(body)),
      ]),
    ),
    '/html-png': send(
      { 'content-type': 'text/html' },
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    ),
    '/html-nul': send({ 'content-type': 'text/html; charset=utf-8' }, Buffer.alloc(4)),
  });
});
afterAll(() => server.close());

const invoker = () => {
  const registry = new ToolRegistry({ capabilities: [] });
  registry.add(createWebFetchTool({ allowPrivateNetwork: true }));
  return new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
};
const fetchPage = (path: string) =>
  invoker().invoke(
    { id: 'f', name: 'web_fetch', args: { url: `${server.base}${path}` } },
    createTestInvocation().context,
  );

describe('web_fetch body decoding', () => {
  it('WFETCH: the charset comes from a BOM, a quoted Content-Type charset or an HTML <meta>, as in browsers', async () => {
    expect((await fetchPage('/quoted-charset')).output).toMatch(/\n\ncafé$/);
    expect((await fetchPage('/meta-charset')).output).toContain('café');
    const utf16 = await fetchPage('/utf16-bom');
    expect(utf16.output).toMatch(/\n\nhello ünïcode$/);
    expect(utf16.output).not.toContain('\u0000');
    expect((await fetchPage('/plain')).output).toContain('tabs\tand');
  });

  it('WFETCH: binary bodies are WEB_INVALID whatever the content type claims, never garbage text', async () => {
    for (const path of ['/png-as-text', '/png-untyped', '/zeros-as-json']) {
      const r = await fetchPage(path);
      expect(r.error, path).toBeInstanceOf(WebError);
      expect(r.error).toMatchObject({ kind: 'invalid', code: 'WEB_INVALID', retryable: false });
      expect((r.error as WebError).message).toMatch(/is binary data, not text/);
    }
  });

  it('WFETCH: a text/html page with no element fetches as its text (or empty), not an internal error', async () => {
    for (const name of Object.keys(ELEMENTLESS)) {
      const r = await fetchPage(`/html-${name}`);
      expect(r.error, name).toBeUndefined();
      expect(r.exitCode, name).toBe(0);
      expect(r.output.split('\n\n').slice(1).join('\n\n').trim(), name).toBe(ELEMENTLESS_TEXT[name]);
    }
  });

  it('WFETCH: binary bytes served as text/html are WEB_INVALID like any other binary body', async () => {
    for (const path of ['/html-png', '/html-nul']) {
      const r = await fetchPage(path);
      expect(r.error, path).toMatchObject({ kind: 'invalid', code: 'WEB_INVALID' });
      expect((r.error as WebError).message).toMatch(/is binary data, not text \(content type 'text\/html'\)/);
    }
  });

  it('charsetOf reads quoted and bare values; an unknown label falls back to UTF-8', () => {
    expect(charsetOf('text/html; charset="Shift_JIS"')).toBe('Shift_JIS');
    expect(charsetOf("text/html;charset='koi8-r'")).toBe('koi8-r');
    expect(charsetOf('text/html; Charset = utf-8 ; x=1')).toBe('utf-8');
    expect(charsetOf('text/html')).toBeUndefined();
    expect(bodyText(Buffer.from('héllo'), 'text/plain; charset=no-such-charset', false)).toMatchObject({
      text: 'héllo',
      encoding: 'utf-8',
      binary: false,
    });
    // A <meta> naming UTF-16 on an ASCII-compatible page means UTF-8.
    expect(bodyText(Buffer.from('<meta charset="utf-16"><p>é</p>'), 'text/html', true).encoding).toBe('utf-8');
  });
});
