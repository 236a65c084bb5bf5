/**
 * Converted pages kept briefly so `web_fetch` continuations (`offset`) read the same text the
 * first chunk came from, without fetching again. At most 16 pages; the oldest goes first.
 */

/** A converted page. */
export interface CachedPage {
  /** The URL after redirects. */
  readonly url: string;
  readonly status: number;
  readonly title: string;
  readonly markdown: string;
  readonly extractor: 'readability' | 'body' | 'text';
  readonly truncatedBody: boolean;
  readonly redirects: readonly string[];
}

/** A small time-bounded cache keyed by the requested URL. */
export class PageCache {
  private readonly pages = new Map<string, { page: CachedPage; at: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 16,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The page fetched for `url`, if still fresh. */
  get(url: string): CachedPage | undefined {
    const hit = this.pages.get(url);
    if (hit === undefined) return undefined;
    if (this.clock() - hit.at > this.ttlMs) {
      this.pages.delete(url);
      return undefined;
    }
    return hit.page;
  }

  /** Keeps `page` for `url`. */
  set(url: string, page: CachedPage): void {
    this.pages.delete(url);
    this.pages.set(url, { page, at: this.clock() });
    while (this.pages.size > this.capacity) this.pages.delete(this.pages.keys().next().value as string);
  }
}
