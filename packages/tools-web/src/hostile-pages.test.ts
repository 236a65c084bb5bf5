import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capNesting, flattenDeep, translateInPieces, type BoundedDomElement } from './bounded-dom.js';
import { parseHTML } from './html-deps.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { httpGet } from './http-get.js';
import { WebError } from './web-errors.js';
import { loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

const nested = (open: string, close: string, depth: number, inner: string) =>
  `<html><body>${open.repeat(depth)}${inner}${close.repeat(depth)}</body></html>`;

describe('hostile pages: the HTML converter stays bounded', () => {
  it('deep nesting (divs, lists, unclosed tags) is flattened to its text instead of overflowing the stack', () => {
    for (const html of [
      nested('<div>', '</div>', 50_000, 'deep text here<script>steal()</script>'),
      nested('<ul><li>', '</li></ul>', 20_000, 'deep item'),
      `<html><body>${'<div>x'.repeat(30_000)}</body></html>`,
      nested('<b>', '</b>', 50_000, 'bold deep'),
    ]) {
      const page = htmlToMarkdown(html, 'http://example.com/');
      expect(page.markdown.length).toBeGreaterThan(0);
      expect(page.markdown).not.toContain('steal()');
    }
    expect(htmlToMarkdown(nested('<div>', '</div>', 50_000, 'deep text here'), 'http://e.com/').markdown).toContain(
      'deep text here',
    );
  });

  it('capNesting drops only the tags past the depth, keeps all text, and leaves scripts, comments and void elements alone', () => {
    const src = `${'<div>'.repeat(5)}<!-- <div><div> --><script>if (a<b) x("<div>")</script>a<br>b<p>c${'</div>'.repeat(5)}`;
    const capped = capNesting(src, 3);
    expect(capped).toBe(
      `${'<div>'.repeat(3)}<!-- <div><div> --><script>if (a<b) x("<div>")</script>a<br>bc${'</div>'.repeat(3)}`,
    );
    expect(capNesting('<p>plain</p>', 3)).toBe('<p>plain</p>');
    // An element whose end tag is optional counts where the parser does not end it itself.
    expect(capNesting('<ul><li>a<li>b<li>c</ul>', 3)).toBe('<ul><li>a<li>b<li>c</ul>');
    expect(capNesting(`<table>${'<rb>x'.repeat(5)}</table>`, 3)).toBe(`<table><rb>x<rb>x${'x'.repeat(3)}</table>`);
    expect(capNesting(`<table>${'<thead>'.repeat(4)}</table>`, 2)).toBe('<table><thead></table>');
    // Past the opening tags kept, tags are dropped and their text kept.
    expect(capNesting('<p>a<p>b<p>c<p>d', 10, 2)).toBe('<p>a<p>bcd');
    const { document } = parseHTML(nested('<section>', '</section>', 300, '<i>leaf</i>'));
    flattenDeep(document.documentElement as unknown as BoundedDomElement, 10);
    expect(document.body.textContent).toContain('leaf');
    expect(document.querySelectorAll('i').length).toBe(0);
  });

  it('a flood of elements the parser does not end itself (rb, thead, colgroup) or of flat paragraphs converts in bounded time', () => {
    for (const html of [
      `<html><body><table>${'<rb>x'.repeat(400_000)}</table></body></html>`,
      `<html><body><table>${'<thead>x'.repeat(100_000)}</table></body></html>`,
      `<html><body><table>${'<colgroup>x'.repeat(100_000)}</table></body></html>`,
      `<html><body>${'<p>x'.repeat(400_000)}</body></html>`,
    ]) {
      const started = Date.now();
      const page = htmlToMarkdown(html, 'http://e.com/');
      expect(page.markdown).toContain('x');
      expect(Date.now() - started, html.slice(0, 40)).toBeLessThan(15_000);
    }
  }, 60_000);

  it('large content is converted in pieces without losing any of it (lists stay lists)', () => {
    const items = Array.from({ length: 3_000 }, (_, i) => `<li>item ${i} <a href="/i${i}">link</a></li>`).join('');
    const pieces: string[] = [];
    const md = translateInPieces(
      `<ul>${items}</ul>`,
      (piece) => {
        pieces.push(piece);
        return piece.replace(/<li>item (\d+)[\s\S]*?<\/li>/g, '* $1\n').replace(/<\/?ul>/g, '');
      },
      4_000,
    );
    expect(pieces.length).toBeGreaterThan(10);
    for (const p of pieces) expect(p).toMatch(/^<ul>.*<\/ul>$/s);
    expect(md.match(/^\* \d+$/gm)).toHaveLength(3_000);
    const page = htmlToMarkdown(
      `<html><body><article>${Array.from({ length: 20_000 }, (_, i) => `<p>Paragraph ${i} of a long page.</p>`).join('')}</article></body></html>`,
      'http://e.com/',
    );
    expect(page.markdown).toContain('Paragraph 0 of a long page.');
    expect(page.markdown).toContain('Paragraph 19999 of a long page.');
  });

  it("a template's content is not page text, whether the article or the whole body is read", () => {
    const article = `<article>${'<p>Visible paragraph of the article, long enough to read. </p>'.repeat(12)}<template>HIDDEN TEMPLATE</template></article>`;
    for (const html of [
      `<html><body>${article}</body></html>`,
      '<html><body><p>visible</p><template>HIDDEN TEMPLATE</template></body></html>',
    ]) {
      const page = htmlToMarkdown(html, 'http://e.com/');
      expect(page.markdown).toContain('isible');
      expect(page.markdown).not.toContain('HIDDEN TEMPLATE');
    }
  });

  it('text full of `](` does not make link absolutising quadratic', () => {
    const page = htmlToMarkdown(`<html><body><p>${'](x'.repeat(300_000)}</p></body></html>`, 'http://e.com/');
    expect(page.markdown.length).toBeGreaterThan(300_000);
  });
});

describe('hostile servers: httpGet stays typed and bounded', () => {
  let server: LoopbackServer;
  const seen: Record<string, string | undefined> = {};
  const zeros = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  });
  beforeAll(async () => {
    server = await loopbackServer({
      '/bad-location': (_q, res) => void res.writeHead(302, { location: 'http://[::1' }).end(),
      '/to-other-origin': (req, res) =>
        void res.writeHead(307, { location: `http://localhost:${req.socket.localPort}/echo` }).end(),
      '/to-same-origin': (_q, res) => void res.writeHead(302, { location: '/echo' }).end(),
      '/see-other': (_q, res) => void res.writeHead(303, { location: '/echo' }).end(),
      '/echo': (req, res, body) => {
        seen[req.headers.host ?? ''] = req.headers.authorization;
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`${req.method} ${req.headers.authorization ?? '-'} ${body}`);
      },
      '/stacked-encoding': (_q, res) =>
        void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, br' }).end('x'),
      '/brotli-bomb': (_q, res) =>
        void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(zeros),
    });
  });
  afterAll(() => server.close());
  const get = (path: string, extra: Partial<Parameters<typeof httpGet>[1]> = {}) =>
    httpGet(`${server.base}${path}`, {
      timeoutMs: 5_000,
      maxBytes: 1024 * 1024,
      maxRedirects: 3,
      allowPrivateNetwork: true,
      ...extra,
    });
  const text = (b: Uint8Array) => new TextDecoder().decode(b);

  it('a redirect to an unparsable Location is WEB_INVALID naming it, not a TypeError', async () => {
    const e = await get('/bad-location').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WebError);
    expect(e).toMatchObject({ kind: 'invalid', status: 302, retryable: false });
    expect((e as WebError).message).toContain("invalid URL 'http://[::1'");
  });

  it('configured headers (credentials) go to the first origin only: a cross-origin redirect drops them', async () => {
    const headers = { authorization: 'Bearer secret' };
    expect(text((await get('/to-same-origin', { headers })).body)).toBe('GET Bearer secret ');
    const r = await get('/to-other-origin', { headers });
    expect(r.url).toMatch(/^http:\/\/localhost:\d+\/echo$/);
    expect(text(r.body)).toBe('GET - ');
  });

  it('a 303 turns a POST into a GET without its body', async () => {
    expect(text((await get('/see-other', { jsonBody: { q: 1 } })).body)).toBe('GET - ');
    expect(text((await get('/echo', { jsonBody: { q: 1 } })).body)).toBe('POST - {"q":1}');
  });

  it('an encoding it cannot decode is WEB_INVALID; a decompression bomb stops at maxBytes', async () => {
    await expect(get('/stacked-encoding')).rejects.toMatchObject({ kind: 'invalid', code: 'WEB_INVALID' });
    const bomb = await get('/brotli-bomb');
    expect(zeros.length).toBeLessThan(1_000);
    expect(bomb.body.length).toBe(1024 * 1024);
    expect(bomb.truncated).toBe(true);
  });
});
