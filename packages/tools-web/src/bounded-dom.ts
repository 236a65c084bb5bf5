/**
 * Bounds on the HTML the page converters see, so a hostile page cannot stall the session
 * (Readability and node-html-markdown run synchronously: no deadline can interrupt them).
 * Nesting deeper than {@link MAX_DOM_DEPTH} is replaced by its text (recursive walkers
 * overflow the stack, and Readability's cost grows with depth); node-html-markdown, whose cost
 * grows with the square of its output, converts large content in pieces of at most
 * {@link MARKDOWN_PIECE_CHARS} HTML characters (content is kept; only very large elements are
 * cut into several, e.g. one long list becomes several lists).
 */
import { parseHTML } from './html-deps.js';

/** Element nesting kept; deeper elements become their text. */
export const MAX_DOM_DEPTH = 128;
/** Nesting of the HTML source kept before parsing (the parser's cost grows with depth); deeper tags are dropped. */
export const MAX_SOURCE_DEPTH = 256;
/** HTML characters converted by one node-html-markdown call. */
export const MARKDOWN_PIECE_CHARS = 32_000;
/** Elements above which Readability is not tried (the whole body is converted instead). */
export const MAX_READABILITY_ELEMENTS = 15_000;

/** The part of linkedom's DOM the bounds use. */
export interface BoundedDomNode {
  readonly nodeType: number;
  readonly childNodes: ArrayLike<BoundedDomNode>;
  readonly textContent: string | null;
  toString(): string;
}

/** An element, as linkedom implements it. */
export interface BoundedDomElement extends BoundedDomNode {
  readonly localName: string;
  readonly outerHTML: string;
  readonly children: ArrayLike<BoundedDomElement>;
  cloneNode(deep: boolean): BoundedDomElement;
  querySelectorAll(selectors: string): ArrayLike<{ remove(): void }>;
  replaceChildren(...nodes: string[]): void;
}

const ELEMENT = 1;
const VOID = new Set('area base br col embed hr img input keygen link meta param source track wbr'.split(' '));
// Elements whose end tag is optional: the parser closes them itself, so they do not deepen the tree.
const OPTIONAL_END = new Set('p li dt dd option optgroup tr td th thead tbody tfoot rb rt rp colgroup'.split(' '));
const RAW_TEXT = new Set('script style textarea title xmp iframe noembed noframes'.split(' '));

/**
 * `html` with the tags that would nest deeper than `maxDepth` removed (their text is kept), so
 * the HTML parser (whose cost grows with the nesting depth) never builds a deeper tree. A linear
 * scan that approximates the parser: void and optional-end elements do not count, comments
 * and raw-text elements (`script`, `style`, ...) are skipped.
 */
export function capNesting(html: string, maxDepth = MAX_SOURCE_DEPTH): string {
  const lower = html.toLowerCase();
  const tag = /<(!--|\/?[a-z][^\s/>]*)/g;
  const out: string[] = [];
  let kept = 0;
  let depth = 0;
  for (let m = tag.exec(lower); m !== null; m = tag.exec(lower)) {
    const token = m[1]!;
    if (token === '!--') {
      const end = lower.indexOf('-->', m.index + 4);
      if (end < 0) break;
      tag.lastIndex = end + 3;
      continue;
    }
    const end = lower.indexOf('>', m.index);
    if (end < 0) break;
    tag.lastIndex = end + 1;
    const closing = token.startsWith('/');
    const name = closing ? token.slice(1) : token;
    if (VOID.has(name) || OPTIONAL_END.has(name)) continue;
    if (!closing && RAW_TEXT.has(name)) {
      // Kept whole, neither counted nor cut: its text is not markup.
      const close = lower.indexOf(`</${name}`, end + 1);
      const closeEnd = close < 0 ? -1 : lower.indexOf('>', close);
      if (closeEnd < 0) break;
      tag.lastIndex = closeEnd + 1;
      continue;
    }
    const drop = closing ? depth > maxDepth : depth + 1 > maxDepth;
    depth = closing ? Math.max(0, depth - 1) : depth + 1;
    if (drop) {
      out.push(html.slice(kept, m.index));
      kept = end + 1;
    }
  }
  if (kept === 0) return html;
  out.push(html.slice(kept));
  return out.join('');
}
const INVISIBLE = 'script,style,noscript,template';

/**
 * Replaces the content of every element at depth `maxDepth` below `root` that still has child
 * elements by its text. Returns the number of elements visited.
 */
export function flattenDeep(root: BoundedDomElement, maxDepth = MAX_DOM_DEPTH): number {
  const stack: [BoundedDomElement, number][] = [[root, 0]];
  let elements = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [el, depth] = top;
    elements += 1;
    const children = Array.from(el.children);
    if (children.length === 0) continue;
    if (depth >= maxDepth) {
      for (const hidden of Array.from(el.querySelectorAll(INVISIBLE))) hidden.remove();
      el.replaceChildren(el.textContent ?? '');
      continue;
    }
    for (const c of children) stack.push([c, depth + 1]);
  }
  return elements;
}

/** The opening and closing tags of `el` (attributes kept). */
function tagsOf(el: BoundedDomElement): [string, string] {
  const close = `</${el.localName}>`;
  const shallow = el.cloneNode(false).outerHTML;
  return [shallow.endsWith(close) ? shallow.slice(0, -close.length) : shallow, close];
}

function split(
  el: BoundedDomElement,
  wrap: (inner: string) => string,
  out: string[],
  limit: number,
  depth: number,
): void {
  let group = '';
  const emit = (): void => {
    if (group.trim() !== '') out.push(wrap(group));
    group = '';
  };
  for (const child of Array.from(el.childNodes)) {
    const element = child.nodeType === ELEMENT ? (child as BoundedDomElement) : undefined;
    const html = element === undefined ? child.toString() : element.outerHTML;
    if (element !== undefined && html.length > limit && element.children.length > 0 && depth < MAX_DOM_DEPTH) {
      emit();
      const [open, close] = tagsOf(element);
      split(element, (inner) => wrap(open + inner + close), out, limit, depth + 1);
      continue;
    }
    if (group.length + html.length > limit) emit();
    group += html;
  }
  emit();
}

/**
 * Converts `html` with `translate` in pieces of at most about `limit` HTML characters (an
 * element larger than that is cut between its children, each part wrapped in a copy of its
 * tags), joined as paragraphs.
 */
export function translateInPieces(
  html: string,
  translate: (html: string) => string,
  limit = MARKDOWN_PIECE_CHARS,
): string {
  if (html.length <= limit) return translate(html);
  const body = parseHTML(`<html><body>${html}</body></html>`).document.body as unknown as BoundedDomElement;
  const pieces: string[] = [];
  split(body, (inner) => inner, pieces, limit, 0);
  return pieces
    .map((p) => translate(p).trim())
    .filter((md) => md !== '')
    .join('\n\n');
}
