/**
 * The HTML stack (linkedom, Readability, node-html-markdown) loaded on first use: it is the
 * heaviest part of the pack and a session that never fetches a page or parses a results page
 * should not pay for it at start-up. All three ship CommonJS, so they load synchronously.
 */
import { createRequire } from 'node:module';

type Linkedom = typeof import('linkedom');
type ReadabilityModule = typeof import('@mozilla/readability');
type NodeHtmlMarkdownModule = typeof import('node-html-markdown');

const load = createRequire(import.meta.url);

let linkedom: Linkedom | undefined;
let readability: ReadabilityModule | undefined;
let nhm: NodeHtmlMarkdownModule | undefined;

/** linkedom's `parseHTML`, loading linkedom on the first call. */
export function parseHTML(html: string): ReturnType<Linkedom['parseHTML']> {
  linkedom ??= load('linkedom') as Linkedom;
  return linkedom.parseHTML(html);
}

/** Mozilla Readability's class, loaded on the first call. */
export function readabilityClass(): ReadabilityModule['Readability'] {
  readability ??= load('@mozilla/readability') as ReadabilityModule;
  return readability.Readability;
}

/** node-html-markdown's class, loaded on the first call. */
export function nodeHtmlMarkdownClass(): NodeHtmlMarkdownModule['NodeHtmlMarkdown'] {
  nhm ??= load('node-html-markdown') as NodeHtmlMarkdownModule;
  return nhm.NodeHtmlMarkdown;
}
