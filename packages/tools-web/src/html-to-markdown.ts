/**
 * Readable Markdown from HTML: Mozilla Readability extracts the article from a linkedom document,
 * node-html-markdown converts it. Pages Readability cannot extract fall back to the whole body.
 */
import type { NodeHtmlMarkdown } from 'node-html-markdown';
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

/** Converts `html` (fetched from `url`, used to resolve relative links) to Markdown. */
export function htmlToMarkdown(html: string, url: string): MarkdownPage {
  const { document } = parseHTML(html);
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  try {
    // Readability mutates the document it reads; linkedom documents satisfy the DOM it needs.
    const Readability = readabilityClass();
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 100,
    }).parse();
    if (article?.content) {
      return {
        title: (article.title ?? title).trim(),
        markdown: absolutise(converter().translate(article.content), url).trim(),
        extractor: 'readability',
      };
    }
  } catch {
    // fall through to the body
  }
  const fresh = parseHTML(html).document;
  for (const el of fresh.querySelectorAll('script,style,noscript,template')) el.remove();
  const body = fresh.querySelector('body')?.innerHTML ?? html;
  return { title, markdown: absolutise(converter().translate(body), url).trim(), extractor: 'body' };
}

/** Makes relative Markdown link targets absolute against the page URL. */
function absolutise(md: string, base: string): string {
  return md.replace(/\]\((?!https?:|mailto:|#)([^)\s]+)\)/g, (m, target: string) => {
    try {
      return `](${new URL(target, base).href})`;
    } catch {
      return m;
    }
  });
}
