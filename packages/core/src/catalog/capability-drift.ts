/**
 * Comparing a run's recorded capability binding with the generation it would resume under: the
 * generation, the catalog digest, the permission-ceiling digest and the external cursor, plus
 * which kinds, which offered tools and which other contributions (flows, hooks, skills, ...)
 * changed, so the refusal says what changed. Within a session the generation changes only with
 * the content; a generation number alone differing (content that changed and changed back) is
 * still a drift.
 */
import type { RunCapabilityBindingV1, ToolSpec } from '@a3s-code/effect';
import type { CapabilityDrift } from '../errors/catalog-errors.js';
import type { ToolDefinition } from '../registry/tool-registry.js';
import type { CatalogGeneration } from './catalog-generation.js';
import { canonicalJson } from './digest.js';

/** Names in `after` but not `before`, in `before` but not `after`, and in both with different values. */
function compare(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): { readonly added: string[]; readonly removed: string[]; readonly changed: string[] } {
  return {
    added: [...after.keys()].filter((n) => !before.has(n)),
    removed: [...before.keys()].filter((n) => !after.has(n)),
    changed: [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n)),
  };
}

/** The drift between `recorded` and `current`, or `undefined` when the run may resume as bound. */
export function capabilityDrift(
  recorded: RunCapabilityBindingV1,
  current: CatalogGeneration,
  recordedTools: readonly ToolSpec[] | undefined,
  currentTools: readonly ToolDefinition[],
): CapabilityDrift | undefined {
  const changed: string[] = [];
  if (recorded.generation !== current.generation) changed.push('generation');
  if (recorded.catalog_digest !== current.digest) changed.push('catalog');
  if (recorded.ceiling_digest !== current.ceilingDigest) changed.push('permission_ceiling');
  if (recorded.external_cursor !== current.externalCursor) changed.push('external_cursor');
  if (changed.length === 0) return undefined;
  const now = current.kindDigests as Readonly<Record<string, string>>;
  const kinds = Object.keys(recorded.kinds ?? {}).filter((k) => recorded.kinds?.[k] !== now[k]);
  // Without the recorded tool list (a checkpoint), the tools cannot be named.
  const tools = compare(
    new Map((recordedTools ?? []).map((t) => [t.name, canonicalJson([t.description, t.input_schema])])),
    new Map(
      recordedTools === undefined
        ? []
        : currentTools.map((t) => [t.name, canonicalJson([t.description, t.inputSchema])]),
    ),
  );
  // A binding recorded before bindings named each contribution cannot say which one changed.
  const contributionsRecorded = recorded.contributions !== undefined;
  const contributions = compare(
    new Map(Object.entries(recorded.contributions ?? {})),
    new Map(contributionsRecorded ? Object.entries(current.contributionDigests) : []),
  );
  return {
    changed,
    kinds,
    toolsAdded: tools.added,
    toolsRemoved: tools.removed,
    toolsChanged: tools.changed,
    contributionsRecorded,
    contributionsAdded: contributions.added,
    contributionsRemoved: contributions.removed,
    contributionsChanged: contributions.changed,
    recordedGeneration: recorded.generation,
    currentGeneration: current.generation,
  };
}
