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
/**
 * The open elements an opening tag closes first, as the HTML parser does (htmlparser2's implied
 * ends): `<li>` ends an open `li`. Others with an optional end tag (`rb`, `colgroup`, a `thead`
 * opened again) are not closed by it, so they nest and count.
 */
const IMPLIED_END: Readonly<Record<string, readonly string[]>> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  option: ['option'],
  optgroup: ['optgroup', 'option'],
  tr: ['tr', 'th', 'td'],
  th: ['th', 'td'],
  td: ['th', 'td'],
  rt: ['rt', 'rp'],
  rp: ['rt', 'rp'],
  tbody: ['thead', 'tbody'],
  tfoot: ['thead', 'tbody'],
};
const RAW_TEXT = new Set('script style textarea title xmp iframe noembed noframes'.split(' '));
/** Opening tags kept before parsing; later ones are dropped (their text is kept): the parser's and converters' cost grows with them. */
export const MAX_SOURCE_TAGS = 25_000;

/**
 * `html` with the tags that would nest deeper than `maxDepth`, and the opening tags after the
 * first `maxTags`, removed (their text is kept), so the HTML parser (whose cost grows with the
 * nesting depth and the element count) never builds a deeper or larger tree. A linear scan that
 * follows the parser's stack of open elements: void elements do not count, an opening tag ends
 * the open elements it implies the end of (`<li>` an open `li`), a closing tag ends the elements
 * open inside its own and one with no open element of its name is dropped; comments and raw-text
 * elements (`script`, `style`, ...) are skipped.
 */
export function capNesting(html: string, maxDepth = MAX_SOURCE_DEPTH, maxTags = MAX_SOURCE_TAGS): string {
  const lower = html.toLowerCase();
  const tag = /<(!--|\/?[a-z][^\s/>]*)/g;
  const out: string[] = [];
  const open: string[] = [];
  let opened = 0;
  let kept = 0;
  const drop = (from: number, to: number): void => {
    out.push(html.slice(kept, from));
    kept = to;
  };
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
    if (VOID.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at < 0) drop(m.index, end + 1);
      else open.length = at;
      continue;
    }
    if (RAW_TEXT.has(name)) {
      // Kept whole, neither counted nor cut: its text is not markup.
      const close = lower.indexOf(`</${name}`, end + 1);
      const closeEnd = close < 0 ? -1 : lower.indexOf('>', close);
      if (closeEnd < 0) break;
      tag.lastIndex = closeEnd + 1;
      continue;
    }
    const ends = IMPLIED_END[name];
    while (ends !== undefined && open.length > 0 && ends.includes(open[open.length - 1]!)) open.pop();
    if (open.length + 1 > maxDepth || opened >= maxTags) drop(m.index, end + 1);
    else {
      open.push(name);
      opened++;
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
