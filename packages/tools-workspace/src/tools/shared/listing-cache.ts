/**
 * Whole listings kept briefly for their next pages. `glob` and the path modes of `grep` sort the
 * whole result and cut one page from it; without this, every page walked and sorted the tree
 * again. As the ripgrep engine keeps a content search's matching files: a first page (no cursor)
 * always lists afresh and replaces what was kept; a page with a cursor reuses the listing its
 * request made within the last minute. Listings are kept per search service object, so a call
 * through another one (the per-call search that path rules filter) never sees them.
 */
import type { WorkspaceScanReport } from '@a3s-code/core';

/** How long a listing serves the next pages of its request, in milliseconds. */
export const LISTING_TTL_MS = 60_000;
/** Listings kept per search service and kind. */
const MAX_LISTINGS = 4;
/** Entries kept per search service and kind, all listings together; a larger listing is not kept. */
const MAX_ITEMS = 1_000_000;

interface Kept<T> {
  readonly items: readonly T[];
  /** The scan reports the listing's search gave, told again to each page served from it. */
  readonly reports: readonly WorkspaceScanReport[];
  readonly at: number;
}

/** A listing loader: it passes `onScan` as its search request's `onScan`. */
export type ListingLoad<T> = (onScan: (report: WorkspaceScanReport) => void) => Promise<readonly T[]>;

/** Listings of one kind (glob paths, grep paths, grep counts), per search service. */
export class ListingCache<T> {
  private readonly byOwner = new WeakMap<object, Map<string, Kept<T>>>();

  /**
   * The listing of request `key`: the kept one when `reuse` (a page after the first) and it is
   * fresh, its scan reports told to `onScan` again; otherwise `load`'s, kept for the next pages.
   */
  async get(
    owner: object,
    key: string,
    reuse: boolean,
    onScan: ((report: WorkspaceScanReport) => void) | undefined,
    load: ListingLoad<T>,
  ): Promise<readonly T[]> {
    const kept = this.byOwner.get(owner);
    const hit = kept?.get(key);
    if (reuse && hit && Date.now() - hit.at < LISTING_TTL_MS) {
      for (const r of hit.reports) onScan?.(r);
      return hit.items;
    }
    const reports: WorkspaceScanReport[] = [];
    const items = await load((r) => {
      reports.push(r);
      onScan?.(r);
    });
    this.keep(owner, key, { items, reports, at: Date.now() });
    return items;
  }

  private keep(owner: object, key: string, entry: Kept<T>): void {
    let kept = this.byOwner.get(owner);
    kept?.delete(key);
    if (entry.items.length > MAX_ITEMS) return;
    if (kept === undefined) {
      kept = new Map();
      this.byOwner.set(owner, kept);
    }
    kept.set(key, entry);
    let total = 0;
    for (const k of kept.values()) total += k.items.length;
    for (const [k, old] of kept) {
      if (kept.size <= MAX_LISTINGS && total <= MAX_ITEMS) break;
      kept.delete(k);
      total -= old.items.length;
    }
    // Released when stale even if no page of this service is asked for again.
    const map = kept;
    setTimeout(() => {
      if (map.get(key) === entry) map.delete(key);
    }, LISTING_TTL_MS).unref();
  }
}
