/**
 * Readable Markdown from HTML: Mozilla Readability extracts the article from a linkedom document,
 * node-html-markdown converts it. Pages Readability cannot extract fall back to the whole body.
 */
import type { NodeHtmlMarkdown } from 'node-html-markdown';
import {
  type BoundedDomElement,
  capNesting,
  flattenDeep,
  MAX_READABILITY_ELEMENTS,
  translateInPieces,
} from './bounded-dom.js';
import { nodeHtmlMarkdownClass, parseHTML, readabilityClass } from './html-deps.js';

/** A converted page. */
export interface MarkdownPage {
  readonly title: string;
  readonly markdown: string;
  /** `readability` when the article was extracted, `body` for the fallback. */
  readonly extractor: 'readability' | 'body';
}

let shared: NodeHtmlMarkdown | undefined;

/** The converter, built (and node-html-markdown loaded) on the first conversion. */
function converter(): NodeHtmlMarkdown {
  shared ??= new (nodeHtmlMarkdownClass())({ maxConsecutiveNewlines: 2, useInlineLinks: true });
  return shared;
}

const translate = (html: string): string => translateInPieces(html, (piece) => converter().translate(piece));

/** `html` (already {@link capNesting capped}) parsed, with nesting deeper than the bound replaced by its text; and its element count. */
function boundedDocument(html: string): { document: ReturnType<typeof parseHTML>['document']; elements: number } {
  const { document } = parseHTML(html);
  // A page with no element at all (empty, only text, a comment or a doctype) has no root element.
  const root = document.documentElement as unknown as BoundedDomElement | null;
  return { document, elements: root === null ? 0 : flattenDeep(root) };
}

/** Readability's article, or `undefined` when it cannot extract one. */
function extractArticle(
  document: ReturnType<typeof parseHTML>['document'],
): { title?: string | null; content?: string | null } | undefined {
  try {
    // Readability mutates the document it reads; linkedom documents satisfy the DOM it needs.
    const Readability = readabilityClass();
    return (
      new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
        charThreshold: 100,
      }).parse() ?? undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Converts `html` (fetched from `url`, used to resolve relative links) to Markdown. Hostile
 * shapes stay bounded: deep nesting is flattened to text, Readability is skipped for very large
 * documents and the Markdown converter works in pieces.
 */
export function htmlToMarkdown(html: string, url: string): MarkdownPage {
  const capped = capNesting(html);
  const { document, elements } = boundedDocument(capped);
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  // Readability's own element limit does not work on linkedom (no `getElementsByTagName('*')`).
  // A template's content is never shown, and Readability would keep it as text.
  for (const el of document.querySelectorAll('template')) el.remove();
  const article = elements <= MAX_READABILITY_ELEMENTS ? extractArticle(document) : undefined;
  if (article?.content) {
    return {
      title: (article.title ?? title).trim(),
      markdown: absolutise(translate(article.content), url).trim(),
      extractor: 'readability',
    };
  }
  const fresh = boundedDocument(capped).document;
  for (const el of fresh.querySelectorAll('script,style,noscript,template')) el.remove();
  const body = fresh.querySelector('body')?.innerHTML ?? capped;
  return { title, markdown: absolutise(translate(body), url).trim(), extractor: 'body' };
}

/** Makes relative Markdown link targets absolute against the page URL. */
function absolutise(md: string, base: string): string {
  // The target is bounded so text full of `](` cannot make the scan quadratic.
  return md.replace(/\]\((?!https?:|mailto:|#)([^)\]\s]{1,2048})\)/g, (m, target: string) => {
    try {
      return `](${new URL(target, base).href})`;
    } catch {
      return m;
    }
  });
}
