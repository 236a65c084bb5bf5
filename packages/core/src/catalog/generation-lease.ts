/**
 * `GenerationLease`: a run's hold on the exact catalog generation it pinned. It cannot be copied
 * into a working lease (its state is private; the catalog knows each lease it issued by
 * identity), and releasing it is idempotent.
 */
import type { CatalogGeneration } from './catalog-generation.js';

/** A hold on one generation. Release it when the work that pinned it has settled. */
export class GenerationLease {
  /** The generation held. */
  readonly generation: CatalogGeneration;
  /** Who holds it (a run id). */
  readonly owner: string;
  #release: (() => void) | undefined;

  /** @internal Issued by `CapabilityCatalog.pin`. */
  constructor(generation: CatalogGeneration, owner: string, release: () => void) {
    this.generation = generation;
    this.owner = owner;
    this.#release = release;
    Object.freeze(this);
  }

  /** True once released. */
  get released(): boolean {
    return this.#release === undefined;
  }

  /** Releases the hold (once; later calls do nothing). */
  release(): void {
    const r = this.#release;
    this.#release = undefined;
    r?.();
  }
}
