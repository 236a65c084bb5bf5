/**
 * `CatalogGeneration`: one immutable, published generation of a session's capability catalog —
 * its number, the tools runs execute and the model is offered, the other contributions, the
 * permission ceiling, and the digests that bind runs to it. Digests are computed on first use.
 */
import type { RunCapabilityBindingV1 } from '@a3s-code/effect';
import type { ToolDefinition } from '../registry/tool-registry.js';
import type { ToolSet } from '../registry/tool-set.js';
import type { Tool } from '../tools/tool.js';
import { CAPABILITY_KINDS, type CapabilityContribution, type CapabilityKind } from './capability-kinds.js';
import { digestOf } from './digest.js';
import { ceilingDigest, type PermissionCeiling } from './permission-ceiling.js';

/** The content of a generation (what a preparation projects and validates). */
export interface CapabilityProjection {
  /** Tools in surface order. */
  readonly tools: readonly Tool[];
  /** Every other contribution. */
  readonly contributions: readonly CapabilityContribution[];
  readonly ceiling: PermissionCeiling;
  /** Cursor of the external capability source, when the projection came from one. */
  readonly externalCursor?: string;
}

const toolDigests = new WeakMap<Tool, string>();

/** The digest of one tool: everything the model and the kernel see of it. */
export function toolDigest(tool: Tool): string {
  let d = toolDigests.get(tool);
  if (d === undefined) {
    d = digestOf({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
      tier: tool.tier,
      capabilities: tool.capabilities ?? {},
      requires: tool.requires ?? [],
      timeout_ms: tool.timeoutMs ?? null,
      reentrant: tool.reentrant ?? true,
    });
    toolDigests.set(tool, d);
  }
  return d;
}

const contributionDigests = new WeakMap<CapabilityContribution, string>();

/** The digest of one contribution (cached per object: a session's fixed contributions are digested once). */
function contributionDigest(c: CapabilityContribution): string {
  let d = contributionDigests.get(c);
  if (d === undefined) {
    d = digestOf({ name: c.name, source: c.source, descriptor: c.descriptor, tier: c.tier });
    contributionDigests.set(c, d);
  }
  return d;
}

/** One published generation. Immutable. */
export class CatalogGeneration implements ToolSet {
  /** The generation number (`>= 1`, increasing within a session's lineage). */
  readonly generation: number;
  readonly contributions: readonly CapabilityContribution[];
  readonly ceiling: PermissionCeiling;
  readonly externalCursor: string | undefined;
  readonly #tools: readonly Tool[];
  readonly #byName: ReadonlyMap<string, Tool>;
  #definitions: readonly ToolDefinition[] | undefined;
  #kinds: Readonly<Record<CapabilityKind, string>> | undefined;
  #each: Readonly<Record<string, string>> | undefined;
  #digest: string | undefined;
  #ceilingDigest: string | undefined;

  constructor(generation: number, projection: CapabilityProjection) {
    this.generation = generation;
    this.#tools = Object.freeze([...projection.tools]);
    this.#byName = new Map(this.#tools.map((t) => [t.name, t]));
    this.contributions = Object.freeze([...projection.contributions]);
    this.ceiling = projection.ceiling;
    this.externalCursor = projection.externalCursor;
    Object.freeze(this);
  }

  /** Same as {@link generation} (a `ToolSet` version: an immutable set never changes). */
  get version(): number {
    return this.generation;
  }

  /** @inheritdoc */
  get(name: string): Tool | undefined {
    return this.#byName.get(name);
  }

  /** @inheritdoc */
  tools(): readonly Tool[] {
    return this.#tools;
  }

  /** @inheritdoc */
  toolNames(): readonly string[] {
    return this.#tools.map((t) => t.name);
  }

  /** @inheritdoc */
  toolDefinitions(): readonly ToolDefinition[] {
    this.#definitions ??= Object.freeze(
      this.#tools.map((t) =>
        Object.freeze({ name: t.name, description: t.description, inputSchema: t.inputSchema, tier: t.tier }),
      ),
    );
    return this.#definitions;
  }

  /** Digest per kind (tools sorted by name, contributions by name): what a drift names. */
  get kindDigests(): Readonly<Record<CapabilityKind, string>> {
    if (this.#kinds === undefined) {
      const kinds = {} as Record<CapabilityKind, string>;
      for (const kind of CAPABILITY_KINDS) {
        kinds[kind] =
          kind === 'tool'
            ? digestOf(
                this.#tools
                  .map((t) => [t.name, toolDigest(t)] as const)
                  .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
              )
            : digestOf(
                this.contributions
                  .filter((c) => c.kind === kind)
                  .map((c) => [c.name, contributionDigest(c)] as const)
                  .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
              );
      }
      this.#kinds = Object.freeze(kinds);
    }
    return this.#kinds;
  }

  /**
   * Digest of each contribution that is not a tool, keyed `<kind>:<name>` (`flow:triage`,
   * `hook:pre_tool_use:0`): what a drift names. The kind digests already cover them.
   */
  get contributionDigests(): Readonly<Record<string, string>> {
    if (this.#each === undefined) {
      const each: Record<string, string> = {};
      for (const c of this.contributions) each[`${c.kind}:${c.name}`] = contributionDigest(c);
      this.#each = Object.freeze(each);
    }
    return this.#each;
  }

  /** Digest of the whole projection (every kind). */
  get digest(): string {
    this.#digest ??= digestOf(this.kindDigests);
    return this.#digest;
  }

  /** Digest of the full permission ceiling. */
  get ceilingDigest(): string {
    this.#ceilingDigest ??= ceilingDigest(this.ceiling);
    return this.#ceilingDigest;
  }

  /** True when `other` has the same content (projection, ceiling and external cursor). */
  sameContent(other: CatalogGeneration): boolean {
    return (
      this.digest === other.digest &&
      this.ceilingDigest === other.ceilingDigest &&
      this.externalCursor === other.externalCursor
    );
  }

  /** The binding a run admitted under this generation records. */
  binding(): RunCapabilityBindingV1 {
    return {
      version: 1,
      generation: this.generation,
      catalog_digest: this.digest,
      ceiling_digest: this.ceilingDigest,
      kinds: { ...this.kindDigests },
      contributions: { ...this.contributionDigests },
      ...(this.externalCursor === undefined ? {} : { external_cursor: this.externalCursor }),
    };
  }
}
