/**
 * `CapabilityCatalog`: the capability generations of one session. Staged state (the session's
 * tool registry and resources, plus contributions staged here) becomes visible only as a whole,
 * immutable {@link CatalogGeneration}: projected, validated completely, then published with one
 * compare-and-swap. Changes outside any preparation (an MCP server's tools listed again) are
 * published the same way on the next read. A preparation runs a bounded graph of steps with
 * side effects and undoes all of them if it fails or is cancelled; while it runs, nothing staged
 * is published. Generation numbers only grow; a new catalog may take one batch of recorded
 * bindings first (its history), and then continues after them.
 */
import type { RunCapabilityBindingV1 } from '@a3s-code/effect';
import {
  CatalogBootstrapError,
  CatalogConflictError,
  CatalogPreparationError,
  CatalogValidationError,
} from '../errors/catalog-errors.js';
import { CancelledError } from '../errors/tool-errors.js';
import type { Tool } from '../tools/tool.js';
import type { CapabilityContribution, CapabilityKind } from './capability-kinds.js';
import { CatalogGeneration, type CapabilityProjection } from './catalog-generation.js';
import { GenerationLease } from './generation-lease.js';
import type { PermissionCeiling } from './permission-ceiling.js';
import {
  DEFAULT_MAX_PREPARATION_STEPS,
  orderSteps,
  type PreparationContext,
  type PreparationStep,
} from './preparation.js';
import { validateProjection, type CatalogValidator } from './validate-projection.js';

/** Options of {@link CapabilityCatalog}. */
export interface CapabilityCatalogOptions {
  /** Reads the staged tools and contributions as they are now. */
  readonly project: () => {
    readonly tools: readonly Tool[];
    readonly contributions: readonly CapabilityContribution[];
  };
  /** The session's permission ceiling. */
  readonly ceiling: PermissionCeiling;
  /** The cursor of an external capability source, when one feeds the catalog. */
  readonly externalCursor?: () => string | undefined;
  /** Host checks run after the catalog's own. */
  readonly validators?: readonly CatalogValidator[];
  /** Steps a preparation may have, `1..256`. Default 64. */
  readonly maxSteps?: number;
}

/** Options of {@link CapabilityCatalog.prepare}. */
export interface PrepareOptions {
  /** Cancels the preparation (it is rolled back). */
  readonly signal?: AbortSignal;
  /** Called before each step, then before `validate` and `publish`; a throw fails the preparation there. */
  readonly onStep?: (step: string) => void | Promise<void>;
}

/** A session's catalog of capability generations. */
export class CapabilityCatalog {
  readonly #options: CapabilityCatalogOptions;
  readonly #maxSteps: number;
  readonly #staged = new Map<string, CapabilityContribution>();
  readonly #leases = new Set<GenerationLease>();
  readonly #publishListeners = new Set<(g: CatalogGeneration) => void>();
  readonly #errorListeners = new Set<(e: CatalogValidationError) => void>();
  readonly #releaseWaiters: { readonly generation: number; readonly resolve: () => void }[] = [];
  #current: CatalogGeneration | undefined;
  #floor = 0;
  #adopt: RunCapabilityBindingV1 | undefined;
  #bootstrapped = false;
  #dirty = true;
  #preparing = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #flushQueued = false;

  constructor(options: CapabilityCatalogOptions) {
    const max = options.maxSteps ?? DEFAULT_MAX_PREPARATION_STEPS;
    if (!Number.isInteger(max) || max < 1 || max > 256)
      throw new RangeError(`maxSteps: must be an integer in 1..256, got ${String(max)}`);
    this.#options = options;
    this.#maxSteps = max;
  }

  /** True once a generation has been published. */
  get published(): boolean {
    return this.#current !== undefined;
  }

  /** True while a preparation runs (staged changes are not published meanwhile). */
  get preparing(): boolean {
    return this.#preparing > 0;
  }

  /**
   * The published generation. Changes staged outside any preparation are published first (the
   * first read publishes generation 1, or the one a bootstrap continues from).
   * @throws CatalogValidationError when nothing is published yet and the staged state is not valid.
   */
  get current(): CatalogGeneration {
    if ((this.#dirty && this.#preparing === 0) || this.#current === undefined) this.refresh();
    return this.#current as CatalogGeneration;
  }

  /**
   * Takes the catalog's history — the bindings runs recorded under earlier catalogs of the same
   * session — as one complete batch, before anything is published, and only once. Numbering then
   * continues after the latest recorded generation; if the first projection has exactly that
   * generation's content, it is published under the same number.
   * @throws CatalogBootstrapError after a publication, on a second batch, or for a malformed entry (nothing is taken then).
   */
  bootstrap(history: readonly RunCapabilityBindingV1[]): void {
    if (this.#current !== undefined)
      throw new CatalogBootstrapError(
        `generation ${this.#current.generation} is already published; a published catalog never goes back`,
      );
    if (this.#bootstrapped) throw new CatalogBootstrapError('a history batch was already taken; it is taken once');
    if (!Array.isArray(history)) throw new CatalogBootstrapError('the history must be an array of bindings');
    history.forEach((b, i) => {
      if (
        b?.version !== 1 ||
        !Number.isSafeInteger(b.generation) ||
        b.generation < 1 ||
        typeof b.catalog_digest !== 'string' ||
        typeof b.ceiling_digest !== 'string'
      )
        throw new CatalogBootstrapError(`history[${i}] is not a RunCapabilityBindingV1`);
    });
    this.#bootstrapped = true;
    for (const b of history) {
      if (b.generation >= this.#floor) {
        this.#floor = b.generation;
        this.#adopt = b;
      }
    }
  }

  /** Marks the staged state changed: it is published on the next read (or soon after), unless a preparation runs. */
  markChanged(): void {
    this.#dirty = true;
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => {
      this.#flushQueued = false;
      if (!this.#dirty || this.#preparing > 0 || this.#current === undefined) return;
      try {
        this.refresh();
      } catch {
        // Reported through onRefreshError; the previous generation stays.
      }
    });
  }

  /**
   * Publishes the staged state if its content differs from the published generation's (no-op
   * while a preparation runs). Returns the published generation.
   * @throws CatalogValidationError when the staged state is not valid (the previous generation stays).
   */
  refresh(): CatalogGeneration {
    if (this.#preparing > 0 && this.#current !== undefined) return this.#current;
    this.#dirty = false;
    try {
      return this.compareAndSwap(this.#current, this.#project());
    } catch (e) {
      if (e instanceof CatalogValidationError) for (const l of [...this.#errorListeners]) l(e);
      throw e;
    }
  }

  /**
   * Validates `projection` completely and publishes it as the next generation if `expected` is
   * still the published one (one compare-and-swap). Content equal to the published generation's
   * publishes nothing and returns the published one.
   * @throws CatalogValidationError (nothing published); CatalogConflictError when another generation was published meanwhile.
   */
  compareAndSwap(expected: CatalogGeneration | undefined, projection: CapabilityProjection): CatalogGeneration {
    const problems = validateProjection(projection, this.#options.validators);
    if (problems.length > 0) throw new CatalogValidationError(problems);
    const draft = new CatalogGeneration(0, projection);
    if (this.#current !== expected)
      throw new CatalogConflictError(expected?.generation ?? 0, this.#current?.generation ?? 0);
    if (this.#current?.sameContent(draft)) return this.#current;
    const adopt = this.#adopt;
    const sameAsHistory =
      this.#current === undefined &&
      adopt !== undefined &&
      adopt.catalog_digest === draft.digest &&
      adopt.ceiling_digest === draft.ceilingDigest &&
      adopt.external_cursor === draft.externalCursor;
    const number = sameAsHistory ? adopt.generation : Math.max(this.#current?.generation ?? 0, this.#floor) + 1;
    const next = new CatalogGeneration(number, projection);
    this.#current = next;
    for (const l of [...this.#publishListeners]) l(next);
    return next;
  }

  /**
   * Prepares and publishes a new generation: runs `steps` in dependency order (a bounded graph),
   * then validates the whole staged projection and publishes it with one compare-and-swap.
   * Preparations run one at a time. If a step throws, a validation fails, the swap conflicts or
   * `signal` aborts, every undo registered so far runs (newest first) and staged contributions are
   * restored: the previous generation stays published and nothing partial is ever visible.
   * @throws CatalogPlanError for a bad plan (before anything runs); CatalogPreparationError naming the step otherwise.
   */
  async prepare(steps: readonly PreparationStep[], options: PrepareOptions = {}): Promise<CatalogGeneration> {
    const order = orderSteps(steps, this.#maxSteps);
    const turn = this.#queue.then(() => this.#prepare(order, options));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #prepare(order: readonly PreparationStep[], options: PrepareOptions): Promise<CatalogGeneration> {
    const signal = options.signal ?? new AbortController().signal;
    const base = this.current;
    this.#preparing++;
    const undos: (() => Promise<void> | void)[] = [];
    const stagedBefore = new Map(this.#staged);
    let step = 'start';
    try {
      for (const s of order) {
        step = s.id;
        await this.#enter(step, signal, options);
        await s.run(this.#context(step, signal, undos));
      }
      step = 'validate';
      await this.#enter(step, signal, options);
      const projection = this.#project();
      const problems = validateProjection(projection, this.#options.validators);
      if (problems.length > 0) throw new CatalogValidationError(problems);
      step = 'publish';
      await this.#enter(step, signal, options);
      const published = this.compareAndSwap(base, projection);
      this.#preparing--;
      this.#dirty = false;
      return published;
    } catch (e) {
      const cancelled = signal.aborted;
      const rollbackErrors: string[] = [];
      for (const undo of undos.reverse()) {
        try {
          await undo();
        } catch (u) {
          rollbackErrors.push(u instanceof Error ? u.message : String(u));
        }
      }
      this.#staged.clear();
      for (const [k, v] of stagedBefore) this.#staged.set(k, v);
      this.#preparing--;
      this.#dirty = true;
      try {
        this.refresh();
      } catch {
        // What is staged now is not ours to publish; the previous generation stays.
      }
      throw new CatalogPreparationError(step, e, cancelled, undos.length, rollbackErrors);
    }
  }

  async #enter(step: string, signal: AbortSignal, options: PrepareOptions): Promise<void> {
    if (signal.aborted) throw new CancelledError(`capability preparation (step '${step}')`, signal.reason);
    await options.onStep?.(step);
    if (signal.aborted) throw new CancelledError(`capability preparation (step '${step}')`, signal.reason);
  }

  #context(step: string, signal: AbortSignal, undos: (() => Promise<void> | void)[]): PreparationContext {
    return Object.freeze({
      signal,
      step,
      onRollback: (undo: () => Promise<void> | void) => {
        if (typeof undo !== 'function') throw new TypeError('onRollback: the undo must be a function');
        undos.push(undo);
      },
      contribute: (c: CapabilityContribution) => this.#stage(c),
      withdraw: (kind: Exclude<CapabilityKind, 'tool'>, name: string) => this.#unstage(kind, name),
    });
  }

  /** Stages a contribution outside any preparation (published on the next read). */
  contribute(contribution: CapabilityContribution): void {
    this.#stage(contribution);
  }

  /** Removes a staged contribution outside any preparation; returns whether it was staged. */
  withdraw(kind: Exclude<CapabilityKind, 'tool'>, name: string): boolean {
    return this.#unstage(kind, name);
  }

  #stage(c: CapabilityContribution): void {
    this.#staged.set(`${String(c?.kind)}\u0000${String(c?.name)}`, Object.freeze({ ...c }));
    this.markChanged();
  }

  #unstage(kind: string, name: string): boolean {
    const had = this.#staged.delete(`${kind}\u0000${name}`);
    if (had) this.markChanged();
    return had;
  }

  /** Holds the published generation for `owner` (a run) until the lease is released. */
  pin(owner: string): GenerationLease {
    const generation = this.current;
    const lease: GenerationLease = new GenerationLease(generation, owner, () => {
      this.#leases.delete(lease);
      this.#wake();
    });
    this.#leases.add(lease);
    return lease;
  }

  /** True when `lease` was issued by this catalog and is still held (a copy of a lease never is). */
  holds(lease: GenerationLease): boolean {
    return this.#leases.has(lease);
  }

  /** Leases held now: generation and owner. */
  leases(): readonly { readonly generation: number; readonly owner: string }[] {
    return [...this.#leases].map((l) => ({ generation: l.generation.generation, owner: l.owner }));
  }

  /** Resolves once no lease holds `generation` or an older one (what it retired may then be torn down). */
  whenReleased(generation: number): Promise<void> {
    if (![...this.#leases].some((l) => l.generation.generation <= generation)) return Promise.resolve();
    return new Promise((resolve) => this.#releaseWaiters.push({ generation, resolve }));
  }

  /** Calls `listener` when a change made outside any preparation could not be published (the previous generation stays); returns its remover. */
  onRefreshError(listener: (error: CatalogValidationError) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  /** Calls `listener` with each newly published generation; returns its remover. */
  onPublish(listener: (generation: CatalogGeneration) => void): () => void {
    this.#publishListeners.add(listener);
    return () => this.#publishListeners.delete(listener);
  }

  #wake(): void {
    const held = [...this.#leases].map((l) => l.generation.generation);
    for (let i = this.#releaseWaiters.length - 1; i >= 0; i--) {
      const w = this.#releaseWaiters[i]!;
      if (!held.some((g) => g <= w.generation)) {
        this.#releaseWaiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  #project(): CapabilityProjection {
    const p = this.#options.project();
    const cursor = this.#options.externalCursor?.();
    return {
      tools: p.tools,
      contributions: [...p.contributions, ...this.#staged.values()],
      ceiling: this.#options.ceiling,
      ...(cursor === undefined ? {} : { externalCursor: cursor }),
    };
  }
}
