/**
 * Tool packs: a named, versioned list of tools (ARCHITECTURE §5). A session registers a pack's
 * tools one by one, each only when its `requires` are provided. A pack whose tools hold state for
 * one session (caches, circuit breakers, a browser) builds them in `openSession`, from the
 * session's settings, and releases that state when the session closes.
 */
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { ToolPackSettings } from './pack-settings.js';
import type { Tool } from './tool.js';
import type { ToolMiddleware } from './tool-middleware.js';
import { assertValidTool } from './validate-tool.js';

/** A named, versioned list of tools. */
export interface ToolPack {
  /** Pack name, e.g. `@a3s-code/tools-workspace`. */
  readonly name: string;
  /** Semver of the pack. */
  readonly version: string;
  /** The tools, names unique within the pack. */
  readonly tools: readonly Tool[];
  /** Middleware the pack contributes (e.g. diagnostics-on-write wrapping `write`/`edit`). */
  readonly middleware?: readonly ToolMiddleware[];
  /**
   * Builds the pack's per-session tools, once for each session (and once for each listed
   * surface), after `tools`. Each is registered only when its `requires` are provided, like
   * `tools`; `close` runs when the session closes.
   */
  readonly openSession?: (context: ToolPackSessionContext) => ToolPackSession;
}

/** What a pack's `openSession` receives. */
export interface ToolPackSessionContext {
  /** The session's epoch-milliseconds clock. */
  readonly clock: () => number;
  /** The session's settings for packs, merged over every configuration layer. */
  readonly settings: ToolPackSettings;
}

/** The tools a pack opened for one session, and what to release when the session closes. */
export interface ToolPackSession {
  readonly tools: readonly Tool[];
  /** Releases the session's state (called once, when the session closes). */
  close?(): Promise<void>;
}

const SEMVER_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Validates and freezes a pack. Throws `INVALID_TOOL_DEFINITION` naming the bad field. */
export function defineToolPack(pack: ToolPack): ToolPack {
  const subject = `tool pack '${String(pack.name)}'`;
  if (typeof pack.name !== 'string' || pack.name.length === 0) throw new ToolDefinitionError(subject, 'name', 'must be a non-empty string');
  if (typeof pack.version !== 'string' || !SEMVER_RE.test(pack.version)) {
    throw new ToolDefinitionError(subject, 'version', `must be a semver version like 1.2.3, got ${JSON.stringify(pack.version)}`);
  }
  if (pack.openSession !== undefined && typeof pack.openSession !== 'function') throw new ToolDefinitionError(subject, 'openSession', 'must be a function (context) => { tools, close? }');
  const seen = new Set<string>();
  pack.tools.forEach((tool, i) => {
    assertValidTool(tool, `${subject} tools[${i}]`);
    if (seen.has(tool.name)) throw new ToolDefinitionError(subject, `tools[${i}].name`, `duplicate tool name '${tool.name}'`);
    seen.add(tool.name);
  });
  return Object.freeze({ ...pack, tools: Object.freeze([...pack.tools]) });
}
