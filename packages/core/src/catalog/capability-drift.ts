/**
 * Comparing a run's recorded capability binding with the generation it would resume under: the
 * generation, the catalog digest, the permission-ceiling digest and the external cursor, plus
 * which kinds and which offered tools changed, so the refusal says what changed. Within a
 * session the generation changes only with the content; a generation number alone differing
 * (content that changed and changed back) is still a drift.
 */
import type { RunCapabilityBindingV1, ToolSpec } from '@a3s-code/effect';
import type { CapabilityDrift } from '../errors/catalog-errors.js';
import type { ToolDefinition } from '../registry/tool-registry.js';
import type { CatalogGeneration } from './catalog-generation.js';
import { canonicalJson } from './digest.js';

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
  const before = new Map((recordedTools ?? []).map((t) => [t.name, canonicalJson([t.description, t.input_schema])]));
  const after = new Map(
    recordedTools === undefined ? [] : currentTools.map((t) => [t.name, canonicalJson([t.description, t.inputSchema])]),
  );
  return {
    changed,
    kinds,
    toolsAdded: [...after.keys()].filter((n) => !before.has(n)),
    toolsRemoved: [...before.keys()].filter((n) => !after.has(n)),
    toolsChanged: [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n)),
    recordedGeneration: recorded.generation,
    currentGeneration: current.generation,
  };
}
