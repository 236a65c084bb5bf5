/**
 * Tool packs: a named, versioned list of tools and the resources they need (ARCHITECTURE §5).
 * A session plugs every pack in the same way: it attaches the pack's resources, then registers
 * its tools one by one, each only when every capability it `requires` is provided. A pack's
 * per-session state (caches, circuit breakers, a browser, a language server) is a resource:
 * opened for one session, handed to the pack's tools through `ctx.resource`, closed with it.
 */
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { Tool } from './tool.js';
import type { ToolMiddleware } from './tool-middleware.js';
import type { ToolResource } from './tool-resource.js';
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
   * Resources the pack provides, each under its own `resource.<name>` capability. A tool that
   * requires one is on a session's surface only while the resource is attached and not failed
   * or closed; it reaches the opened resource through `ctx.resource(capability)`.
   */
  readonly resources?: readonly ToolResource[];
}

const RESOURCE_RE = /^resource\.[a-z0-9_.-]+$/;

const SEMVER_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Validates and freezes a pack. Throws `INVALID_TOOL_DEFINITION` naming the bad field. */
export function defineToolPack(pack: ToolPack): ToolPack {
  const subject = `tool pack '${String(pack.name)}'`;
  if (typeof pack.name !== 'string' || pack.name.length === 0)
    throw new ToolDefinitionError(subject, 'name', 'must be a non-empty string');
  if (typeof pack.version !== 'string' || !SEMVER_RE.test(pack.version)) {
    throw new ToolDefinitionError(
      subject,
      'version',
      `must be a semver version like 1.2.3, got ${JSON.stringify(pack.version)}`,
    );
  }
  if ('openSession' in pack)
    throw new ToolDefinitionError(
      subject,
      'openSession',
      'is no longer supported; declare the per-session state as a resource in `resources`',
    );
  const capabilities = new Set<string>();
  (pack.resources ?? []).forEach((r, i) => {
    const at = `resources[${i}]`;
    if (typeof r?.capability !== 'string' || !RESOURCE_RE.test(r.capability))
      throw new ToolDefinitionError(
        subject,
        `${at}.capability`,
        `must be 'resource.<name>' (lowercase letters, digits, _ . -), got ${JSON.stringify(r?.capability)}`,
      );
    if (capabilities.has(r.capability))
      throw new ToolDefinitionError(subject, `${at}.capability`, `duplicate capability '${r.capability}'`);
    capabilities.add(r.capability);
    if (typeof r.open !== 'function')
      throw new ToolDefinitionError(subject, `${at}.open`, 'must be a function (context) => Promise<{ close() }>');
    if (r.opens !== undefined && r.opens !== 'lazy' && r.opens !== 'session')
      throw new ToolDefinitionError(subject, `${at}.opens`, "must be 'lazy' or 'session'");
    if (r.enabled !== undefined && typeof r.enabled !== 'function')
      throw new ToolDefinitionError(subject, `${at}.enabled`, 'must be a function (context) => boolean');
  });
  const seen = new Set<string>();
  pack.tools.forEach((tool, i) => {
    // A schema built on first use is checked when the tool is registered, not when the pack is defined.
    assertValidTool(tool, `${subject} tools[${i}]`, { deferSchemaGetter: true });
    if (seen.has(tool.name))
      throw new ToolDefinitionError(subject, `tools[${i}].name`, `duplicate tool name '${tool.name}'`);
    seen.add(tool.name);
  });
  return Object.freeze({
    ...pack,
    tools: Object.freeze([...pack.tools]),
    ...(pack.resources ? { resources: Object.freeze([...pack.resources]) } : {}),
  });
}
