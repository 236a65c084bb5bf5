/**
 * `SessionCapabilityCatalog`: the catalog of a session, which also knows the session's pack
 * resources, so a tool pack can join a live session as a new generation: the pack is attached
 * (its tools staged), its `session` resources opened, the whole projection validated and
 * published — or, on any failure or cancellation, the pack is unplugged and its resources closed.
 */
import { CatalogPreparationError } from '../errors/catalog-errors.js';
import { SessionClosedError } from '../errors/session-errors.js';
import type { SessionResources } from '../registry/session-resources.js';
import type { ToolPack } from '../tools/tool-pack.js';
import { CapabilityCatalog, type CapabilityCatalogOptions, type PrepareOptions } from './capability-catalog.js';
import type { CatalogGeneration } from './catalog-generation.js';
import type { PreparationStep } from './preparation.js';

/** Options of {@link SessionCapabilityCatalog.toolPackSteps}. */
export interface ToolPackStepOptions {
  /** Step id prefix (`<prefix>.attach`, `<prefix>.open`). Default `pack`. */
  readonly prefix?: string;
  /** Steps that must finish before the pack is attached. */
  readonly after?: readonly string[];
}

/** The catalog of a session. */
export class SessionCapabilityCatalog extends CapabilityCatalog {
  readonly #resources: SessionResources;
  /** The id of the session once it has closed. */
  #closedSession: string | undefined;

  constructor(options: CapabilityCatalogOptions, resources: SessionResources) {
    super(options);
    this.#resources = resources;
  }

  /**
   * The preparation steps that plug `pack` in: `<prefix>.attach` (its resources attached, its
   * tools and middleware staged; undone by unplugging it) and `<prefix>.open` (its `session`
   * resources opened; a failure fails the preparation). Compose them with other steps, or use
   * {@link addToolPack}.
   */
  toolPackSteps(pack: ToolPack, options: ToolPackStepOptions = {}): PreparationStep[] {
    const prefix = options.prefix ?? 'pack';
    const resources = this.#resources;
    return [
      {
        id: `${prefix}.attach`,
        ...(options.after ? { after: options.after } : {}),
        run: (ctx) => {
          resources.addPack(pack);
          ctx.onRollback(() => resources.removePack(pack).then(() => undefined));
        },
      },
      {
        id: `${prefix}.open`,
        after: [`${prefix}.attach`],
        run: () => resources.openPack(pack),
      },
    ];
  }

  /**
   * Prepares and publishes a new generation (see {@link CapabilityCatalog.prepare}).
   * @throws SessionClosedError (a rejection) once the session is closed, or when it closes while the steps run (they are
   *   rolled back): a closed session publishes nothing.
   */
  override async prepare(steps: readonly PreparationStep[], options: PrepareOptions = {}): Promise<CatalogGeneration> {
    const refuse = () => {
      if (this.#closedSession !== undefined) throw new SessionClosedError(this.#closedSession, 'catalog.prepare');
    };
    refuse();
    const onStep = async (step: string) => {
      refuse();
      await options.onStep?.(step);
      refuse();
    };
    try {
      return await super.prepare(steps, { ...options, onStep });
    } catch (e) {
      throw e instanceof CatalogPreparationError && e.cause instanceof SessionClosedError ? e.cause : e;
    }
  }

  /** Closes the catalog with its session `sessionId`: every later {@link prepare} is refused. */
  closeWith(sessionId: string): void {
    this.#closedSession = sessionId;
  }

  /** Plugs `pack` into the live session as a new generation (see {@link toolPackSteps}). */
  addToolPack(pack: ToolPack, options?: PrepareOptions): Promise<CatalogGeneration> {
    return this.prepare(this.toolPackSteps(pack), options);
  }
}
