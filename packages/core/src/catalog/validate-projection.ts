/**
 * Validation of a whole projection before it is published: every tool's definition (name,
 * schema, tier, capabilities), name clashes among tools and within each contribution kind, the
 * tiers contributions act with against the permission ceiling, the ceiling itself (its rules
 * must parse), and that every MCP tool's server is part of the same projection. Host validators
 * run last. Every problem is collected; nothing is published unless there are none.
 */
import { A3sError } from '@a3s-code/effect';
import type { CatalogProblem } from '../errors/catalog-errors.js';
import { compileRuleList, PermissionPolicy } from '../permissions/permission-policy.js';
import { TOOL_TIERS } from '../tools/tool.js';
import { assertValidTool } from '../tools/validate-tool.js';
import { CAPABILITY_KINDS, CONTRIBUTION_NAME_RE } from './capability-kinds.js';
import type { CapabilityProjection } from './catalog-generation.js';

/** A host's own check of a projection: returns the problems it finds (none: valid). */
export type CatalogValidator = (projection: CapabilityProjection) => readonly CatalogProblem[] | undefined;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function checkTools(p: CapabilityProjection, out: CatalogProblem[]): void {
  const seen = new Set<string>();
  const servers = new Set(p.contributions.filter((c) => c.kind === 'mcp').map((c) => `mcp.${c.name}`));
  for (const tool of p.tools) {
    const subject = `tool '${String(tool?.name)}'`;
    try {
      assertValidTool(tool, subject);
    } catch (e) {
      const field = A3sError.isInstance(e) ? String((e.details as { field?: unknown })?.field ?? 'tool') : 'tool';
      out.push({ subject, field, message: messageOf(e) });
      continue;
    }
    if (seen.has(tool.name))
      out.push({ subject, field: 'name', message: 'is published twice; tool names must be unique' });
    seen.add(tool.name);
    for (const cap of tool.requires ?? [])
      if (cap.startsWith('mcp.') && !servers.has(cap))
        out.push({ subject, field: 'requires', message: `needs '${cap}', which this projection does not publish` });
  }
}

function checkContributions(p: CapabilityProjection, out: CatalogProblem[]): void {
  const seen = new Set<string>();
  for (const c of p.contributions) {
    const subject = `${String(c?.kind)} '${String(c?.name)}'`;
    if (c?.kind === ('tool' as string) || !CAPABILITY_KINDS.includes(c?.kind)) {
      out.push({
        subject,
        field: 'kind',
        message: `must be one of ${CAPABILITY_KINDS.filter((k) => k !== 'tool').join(', ')} (tools come from packs and tool sources)`,
      });
      continue;
    }
    if (typeof c.name !== 'string' || !CONTRIBUTION_NAME_RE.test(c.name))
      out.push({ subject, field: 'name', message: `must match ${CONTRIBUTION_NAME_RE.source}` });
    if (typeof c.source !== 'string' || c.source.length === 0)
      out.push({ subject, field: 'source', message: 'must be a non-empty string naming who contributed it' });
    const key = `${c.kind}\u0000${c.name}`;
    if (seen.has(key))
      out.push({ subject, field: 'name', message: `is contributed twice; ${c.kind} names must be unique` });
    seen.add(key);
    if (c.tier !== undefined) {
      if (!TOOL_TIERS.includes(c.tier))
        out.push({ subject, field: 'tier', message: `must be one of ${TOOL_TIERS.join(', ')}` });
      else if (!p.ceiling.tiers.includes(c.tier))
        out.push({
          subject,
          field: 'tier',
          message: `'${c.tier}' exceeds the permission ceiling (tiers: ${p.ceiling.tiers.join(', ') || 'none'})`,
        });
    }
  }
}

function checkCeiling(p: CapabilityProjection, out: CatalogProblem[]): void {
  const subject = 'permission ceiling';
  try {
    new PermissionPolicy(p.ceiling.policy);
  } catch (e) {
    out.push({ subject, field: 'policy', message: messageOf(e) });
  }
  for (const t of p.ceiling.tiers)
    if (!TOOL_TIERS.includes(t)) out.push({ subject, field: 'tiers', message: `unknown tier ${JSON.stringify(t)}` });
  p.ceiling.restrictions.forEach((r, i) => {
    const field = `restrictions[${i}]`;
    if (typeof r?.name !== 'string' || r.name.length === 0) {
      out.push({ subject, field: `${field}.name`, message: 'must be a non-empty string' });
      return;
    }
    for (const list of ['allowedTools', 'deniedTools'] as const) {
      const rules = r[list];
      if (rules === undefined) continue;
      try {
        compileRuleList(rules, `${field}.${list}`);
      } catch (e) {
        out.push({ subject, field: `${field}.${list}`, message: messageOf(e) });
      }
    }
  });
}

/** Every problem of `projection`, first one first (empty: it may be published). */
export function validateProjection(
  projection: CapabilityProjection,
  validators: readonly CatalogValidator[] = [],
): CatalogProblem[] {
  const out: CatalogProblem[] = [];
  checkTools(projection, out);
  checkContributions(projection, out);
  checkCeiling(projection, out);
  for (const v of validators) {
    try {
      out.push(...(v(projection) ?? []));
    } catch (e) {
      out.push({ subject: 'validator', field: '(host)', message: messageOf(e) });
    }
  }
  return out;
}
