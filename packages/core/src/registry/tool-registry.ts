/**
 * The tool registry of a session. A tool is registered only when every
 * capability it `requires` is provided by the workspace or an attached resource; otherwise it
 * waits as *pending* and registers as soon as `provide` supplies what it lacks. Tools can be
 * added and removed at any time (MCP discovery, host tools). Middleware wraps tools by name.
 */
import { didYouMean } from '../config/did-you-mean.js';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { Tool, ToolTier } from '../tools/tool.js';
import type { ToolMiddleware } from '../tools/tool-middleware.js';
import type { ToolPack } from '../tools/tool-pack.js';
import { assertValidTool } from '../tools/validate-tool.js';
import type { WorkspaceCapability } from '../workspace/capabilities.js';

/** A tool as the model sees it. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly tier: ToolTier;
}

/** A tool that is waiting for capabilities. */
export interface PendingTool {
  readonly name: string;
  readonly missing: readonly WorkspaceCapability[];
}

/** The outcome of registering a pack or a tool. */
export interface RegistrationReport {
  readonly registered: readonly string[];
  readonly pending: readonly PendingTool[];
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Capabilities available from the start (usually `workspace.capabilities`). */
  readonly capabilities?: Iterable<WorkspaceCapability>;
}

const OPTION_KEYS: readonly string[] = ['capabilities'];

/**
 * Refuses options that are not an object or have a key other than `capabilities` (a misspelt
 * `capabilites` would leave every tool that needs a capability pending), and capabilities given
 * as one string (it would be taken letter by letter).
 */
function checkOptions(options: unknown): asserts options is ToolRegistryOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ToolDefinitionError('ToolRegistry', 'options', 'must be an options object { capabilities }');
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || OPTION_KEYS.includes(key)) continue;
    throw new ToolDefinitionError(
      'ToolRegistry',
      `options.${key}`,
      `is not an option of ToolRegistry; allowed: ${OPTION_KEYS.join(', ')}${didYouMean(key, OPTION_KEYS)}`,
    );
  }
  const caps = (options as ToolRegistryOptions).capabilities;
  if (caps !== undefined && (typeof caps !== 'object' || caps === null || !(Symbol.iterator in caps)))
    throw new ToolDefinitionError(
      'ToolRegistry',
      'options.capabilities',
      `must be an array or set of capability names (e.g. ['fs.read', 'exec']), got ${typeof caps === 'string' ? JSON.stringify(caps) : typeof caps}`,
    );
}

/** The registry. Not handed to tools: they only ever see a scoped invoker. */
export class ToolRegistry {
  readonly #capabilities = new Set<WorkspaceCapability>();
  readonly #tools = new Map<string, Tool>();
  readonly #pending = new Map<string, Tool>();
  readonly #middleware: ToolMiddleware[] = [];
  readonly #listeners = new Set<() => void>();
  #definitions: readonly ToolDefinition[] | undefined;
  #version = 0;

  /** @throws ToolDefinitionError naming an unknown option key (with the allowed one) or a malformed `capabilities`. */
  constructor(options: ToolRegistryOptions = {}) {
    checkOptions(options);
    for (const c of options.capabilities ?? []) this.#capabilities.add(c);
  }

  /** Increases on every change of the surface or its middleware. */
  get version(): number {
    return this.#version;
  }

  /** Capabilities provided so far. */
  capabilities(): ReadonlySet<WorkspaceCapability> {
    return this.#capabilities;
  }

  /** Adds capabilities (an attached resource) and registers the pending tools they satisfy. */
  provide(capabilities: Iterable<WorkspaceCapability>): RegistrationReport {
    for (const c of capabilities) this.#capabilities.add(c);
    const ready = [...this.#pending].filter(([, tool]) => this.#missing(tool).length === 0);
    // A pending tool's schema (built on first read) is checked when it joins the surface.
    for (const [, tool] of ready) assertValidTool(tool, `tool '${tool.name}'`);
    const registered: string[] = [];
    for (const [name, tool] of ready) {
      this.#pending.delete(name);
      this.#tools.set(name, tool);
      registered.push(name);
    }
    if (registered.length > 0) this.#changed();
    return { registered, pending: this.pending() };
  }

  /**
   * Takes capabilities back (a resource closed or failed to open): every registered tool that
   * requires one of them leaves the surface and waits as pending again.
   */
  withdraw(capabilities: Iterable<WorkspaceCapability>): RegistrationReport {
    for (const c of capabilities) this.#capabilities.delete(c);
    const removed: string[] = [];
    for (const [name, tool] of [...this.#tools]) {
      if (this.#missing(tool).length > 0) {
        this.#tools.delete(name);
        this.#pending.set(name, tool);
        removed.push(name);
      }
    }
    if (removed.length > 0) this.#changed();
    return { registered: [], pending: this.pending().filter((p) => removed.includes(p.name)) };
  }

  /** Registers every tool of a pack (each gated by its `requires`) and the pack's middleware. */
  registerPack(pack: ToolPack): RegistrationReport {
    const registered: string[] = [];
    const pending: PendingTool[] = [];
    for (const tool of pack.tools) {
      const r = this.add(tool);
      registered.push(...r.registered);
      pending.push(...r.pending);
    }
    for (const mw of pack.middleware ?? []) this.use(mw);
    return { registered, pending };
  }

  /**
   * Adds one tool: registered at once when its requirements are met, pending otherwise. A name
   * already present throws `INVALID_TOOL_DEFINITION` unless `replace` is set.
   */
  add(tool: Tool, options: { readonly replace?: boolean } = {}): RegistrationReport {
    // A tool that waits for capabilities may build its schema later (see `provide`).
    const waits = Array.isArray(tool?.requires) && tool.requires.some((c) => !this.#capabilities.has(c));
    assertValidTool(tool, `tool '${String(tool?.name)}'`, { deferSchemaGetter: waits });
    if (options.replace !== true && (this.#tools.has(tool.name) || this.#pending.has(tool.name))) {
      throw new ToolDefinitionError(
        `tool '${tool.name}'`,
        'name',
        'is already registered; remove it first or pass { replace: true }',
      );
    }
    this.#tools.delete(tool.name);
    this.#pending.delete(tool.name);
    const missing = this.#missing(tool);
    if (missing.length > 0) {
      this.#pending.set(tool.name, tool);
      this.#changed();
      return { registered: [], pending: [{ name: tool.name, missing }] };
    }
    this.#tools.set(tool.name, tool);
    this.#changed();
    return { registered: [tool.name], pending: [] };
  }

  /** Removes a registered or pending tool. Returns whether it existed. */
  remove(name: string): boolean {
    const existed = this.#tools.delete(name) || this.#pending.delete(name);
    if (existed) this.#changed();
    return existed;
  }

  /** Adds middleware; returns its remover. Validated: a name and a list of tool names. */
  use(middleware: ToolMiddleware): () => void {
    if (typeof middleware?.name !== 'string' || middleware.name.length === 0) {
      throw new ToolDefinitionError('middleware', 'name', 'must be a non-empty string');
    }
    if (!Array.isArray(middleware.tools) || middleware.tools.some((t) => typeof t !== 'string')) {
      throw new ToolDefinitionError(`middleware '${middleware.name}'`, 'tools', 'must be an array of tool names');
    }
    if (
      middleware.requires !== undefined &&
      (!Array.isArray(middleware.requires) ||
        middleware.requires.some((c) => typeof c !== 'string' || !c.startsWith('resource.')))
    )
      throw new ToolDefinitionError(
        `middleware '${middleware.name}'`,
        'requires',
        "must be an array of 'resource.<name>' capabilities",
      );
    if (typeof middleware.wrap !== 'function')
      throw new ToolDefinitionError(`middleware '${middleware.name}'`, 'wrap', 'must be a function');
    this.#middleware.push(middleware);
    this.#changed();
    return () => {
      const i = this.#middleware.indexOf(middleware);
      if (i >= 0) {
        this.#middleware.splice(i, 1);
        this.#changed();
      }
    };
  }

  /** Middleware wrapping `name`, outermost first (registration order). */
  middlewareFor(name: string): readonly ToolMiddleware[] {
    return this.#middleware.filter((m) => m.tools.includes(name));
  }

  /** The registered tool named `name`. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Registered names in registration order. */
  toolNames(): readonly string[] {
    return [...this.#tools.keys()];
  }

  /** Registered tools in registration order. */
  tools(): readonly Tool[] {
    return [...this.#tools.values()];
  }

  /** Definitions of the registered tools; cached until the registry changes. */
  toolDefinitions(): readonly ToolDefinition[] {
    this.#definitions ??= Object.freeze(
      [...this.#tools.values()].map((t) =>
        Object.freeze({ name: t.name, description: t.description, inputSchema: t.inputSchema, tier: t.tier }),
      ),
    );
    return this.#definitions;
  }

  /** Tools waiting for capabilities. */
  pending(): readonly PendingTool[] {
    return [...this.#pending.values()].map((t) => ({ name: t.name, missing: this.#missing(t) }));
  }

  /** Calls `listener` after every change; returns its remover. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #missing(tool: Tool): WorkspaceCapability[] {
    return (tool.requires ?? []).filter((c) => !this.#capabilities.has(c));
  }

  #changed(): void {
    this.#version += 1;
    this.#definitions = undefined;
    for (const l of this.#listeners) l();
  }
}
