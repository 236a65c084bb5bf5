/** A tiny element builder: no framework, text only through textContent (log content is untrusted). */
import { visible } from '../model/text.js';

/** Attributes and children of {@link h}. */
export type Child = Node | string | null | undefined | false;

/**
 * Creates an element with attributes (`class`, `data-*`, `href`, `title`...) and children; string
 * children become text nodes with their controls and bidirectional overrides shown as marks.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children)
    if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? visible(c) : c);
  return el;
}

/** The element with `id`, or an error naming it. */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`viewer: the page has no #${id}`);
  return el as T;
}
