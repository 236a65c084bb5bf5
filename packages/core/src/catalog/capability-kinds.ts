/**
 * What a session's capability catalog is made of: tools (executable, from packs and tool
 * sources) and the other contributions a generation publishes with them — skills, agents,
 * commands, hooks, MCP servers, context, flows, knowledge and UI contributions.
 */
import type { JsonValue } from '../tools/json-schema.js';
import type { ToolTier } from '../tools/tool.js';

/** A kind of capability. */
export type CapabilityKind =
  | 'tool'
  | 'skill'
  | 'agent'
  | 'command'
  | 'hook'
  | 'mcp'
  | 'context'
  | 'flow'
  | 'knowledge'
  | 'ui';

/** Every kind, in the order digests list them. */
export const CAPABILITY_KINDS: readonly CapabilityKind[] = Object.freeze([
  'tool',
  'skill',
  'agent',
  'command',
  'hook',
  'mcp',
  'context',
  'flow',
  'knowledge',
  'ui',
]);

/** A capability that is not a tool, as the catalog publishes and digests it. */
export interface CapabilityContribution {
  readonly kind: Exclude<CapabilityKind, 'tool'>;
  /** Unique within its kind: 1..128 of `[A-Za-z0-9_.:/@-]`. */
  readonly name: string;
  /** Who contributed it: a pack, `@a3s-code/mcp`, `skills`, `host`. */
  readonly source: string;
  /** What the digest covers besides the name: its text, schema, version (plain JSON). */
  readonly descriptor?: JsonValue;
  /** The tier of authority it acts with, when it acts (a command that runs tools). */
  readonly tier?: ToolTier;
}

/** Contribution names. */
export const CONTRIBUTION_NAME_RE = /^[A-Za-z0-9_.:/@-]{1,128}$/;
