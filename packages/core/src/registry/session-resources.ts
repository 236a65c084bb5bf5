/**
 * The one path by which a session plugs in tool packs: {@link SessionResources.addPack} attaches
 * the pack's enabled resources, then registers its tools and middleware on the registry, where
 * each tool appears exactly when every capability it `requires` is provided. A lazy resource
 * provides its capability when attached and opens on the first call of a tool that requires it;
 * a `session` resource opens in {@link SessionResources.openAtBuild} and provides its capability
 * only once open. A resource that fails to open is reported (listeners, {@link SessionResources.status})
 * and its capability withdrawn, so its tools leave the surface; a closed resource's tools leave too.
 * Tool sources (MCP) attach here as well: each capability a source drives (`mcp.<server>`) is an
 * entry whose state the source reports, and all are detached and closed with the resources.
 */
import { ResourceOpenError, ResourceUnavailableError } from '../errors/resource-errors.js';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { ToolSource } from './tool-source.js';
import type { Tool } from '../tools/tool.js';
import type { ToolPack } from '../tools/tool-pack.js';
import type { OpenedResource, ResourceCapability, ToolResource, ToolResourceContext } from '../tools/tool-resource.js';
import type { SourceResourceState, ToolSourceTarget } from './source-target.js';
import type { RegistrationReport, ToolRegistry } from './tool-registry.js';

const PACK_CAPABILITY_RE = /^resource\.[a-z0-9_.-]+$/;
const SOURCE_CAPABILITY_RE = /^(?:resource\.[a-z0-9_.-]+|mcp\.[A-Za-z0-9_.-]+)$/;
/** The handle of a source-driven capability: the source owns the real thing and closes it. */
const SOURCE_HANDLE: OpenedResource = Object.freeze({ close: async () => undefined });

/** Where a resource is in its lifecycle. */
export type ResourceState = 'attached' | 'opening' | 'open' | 'failed' | 'closed';

/** One attached resource, as hosts and tests see it. */
export interface ResourceStatus {
  /** `resource.<name>` of a pack's resource, `mcp.<server>` of an MCP server. */
  readonly capability: ResourceCapability;
  /** The pack that provides it, or the tool source's name (`@a3s-code/mcp`). */
  readonly pack: string;
  readonly opens: 'lazy' | 'session';
  readonly state: ResourceState;
  /** Why it failed, when `state` is `failed`. */
  readonly error?: ResourceOpenError;
}

/** Opens resources for a tool call: the part of {@link SessionResources} the invoker uses. */
export interface ResourceAccess {
  /**
   * The opened resource of `capability`, opening it first when it is lazy and not yet open.
   * @throws ResourceOpenError when it fails to open; ResourceUnavailableError when it is not attached or closed.
   */
  acquire(capability: ResourceCapability): Promise<OpenedResource>;
}

interface Entry {
  /** The pack's resource; `undefined` for a capability a tool source drives. */
  readonly resource: ToolResource | undefined;
  readonly pack: string;
  /** The source that drives it (identity), for a source entry. */
  readonly source?: object;
  state: ResourceState;
  opening?: Promise<OpenedResource>;
  handle?: OpenedResource;
  error?: ResourceOpenError;
}

/** The resources of one session, bound to its registry. */
export class SessionResources implements ResourceAccess {
  readonly #registry: ToolRegistry;
  readonly #context: ToolResourceContext;
  readonly #entries = new Map<ResourceCapability, Entry>();
  readonly #listeners = new Set<(error: ResourceOpenError) => void>();
  readonly #failures: ResourceOpenError[] = [];
  readonly #detach: (() => void)[] = [];
  /** Each plugged-in pack and the removers of its middleware. */
  readonly #packs = new Map<ToolPack, (() => void)[]>();
  #closed = false;

  constructor(registry: ToolRegistry, context: ToolResourceContext) {
    this.#registry = registry;
    this.#context = context;
  }

  /**
   * Plugs a pack in: attaches each resource its `enabled` accepts, then registers its tools and
   * middleware. Throws `INVALID_TOOL_DEFINITION` (before anything of the pack is attached or
   * registered) when a capability is already attached by another pack or a tool name is taken.
   */
  addPack(pack: ToolPack): RegistrationReport {
    const resources = (pack.resources ?? []).filter((r) => r.enabled?.(this.#context) !== false);
    for (const r of resources) {
      if (typeof r?.capability !== 'string' || !PACK_CAPABILITY_RE.test(r.capability))
        throw new ToolDefinitionError(
          `tool pack '${pack.name}'`,
          'resources',
          `capability ${JSON.stringify(r?.capability)} must be 'resource.<name>' (lowercase letters, digits, _ . -)`,
        );
      const other = this.#entries.get(r.capability);
      if (other !== undefined)
        throw new ToolDefinitionError(
          `tool pack '${pack.name}'`,
          'resources',
          `capability '${r.capability}' is already provided by pack '${other.pack}'`,
        );
    }
    for (const tool of pack.tools) {
      if (this.#registry.get(tool.name) !== undefined || this.#registry.pending().some((p) => p.name === tool.name)) {
        const holder = [...this.#packs.keys()].find((p) => p.tools.some((t) => t.name === tool.name));
        throw new ToolDefinitionError(
          `tool pack '${pack.name}'`,
          'tools',
          `tool '${tool.name}' is already registered by ${holder === undefined ? 'a tool source' : `pack '${holder.name}'`}; a pack cannot replace or shadow another's tool (give it another name)`,
        );
      }
    }
    for (const r of resources) {
      this.#entries.set(r.capability, { resource: r, pack: pack.name, state: 'attached' });
      if ((r.opens ?? 'lazy') === 'lazy') this.#registry.provide([r.capability]);
    }
    const registered: string[] = [];
    const pending: RegistrationReport['pending'][number][] = [];
    for (const tool of pack.tools) {
      const r = this.#registry.add(tool);
      registered.push(...r.registered);
      pending.push(...r.pending);
    }
    this.#packs.set(
      pack,
      (pack.middleware ?? []).map((mw) => this.#registry.use(mw)),
    );
    return { registered, pending };
  }

  /**
   * Opens the `session` resources of a plugged-in pack now (a pack added while the session
   * lives); unlike {@link openAtBuild}, a failure is thrown.
   * @throws ResourceOpenError for the first resource that failed to open.
   */
  async openPack(pack: ToolPack): Promise<void> {
    const own = [...this.#entries.entries()].filter(
      ([, e]) => e.pack === pack.name && e.resource?.opens === 'session' && e.state === 'attached',
    );
    await Promise.all(own.map(([c]) => this.acquire(c)));
  }

  /**
   * Unplugs a pack: its tools and middleware leave the registry and its resources are closed and
   * detached. Returns `false` for a pack that is not plugged in.
   */
  async removePack(pack: ToolPack): Promise<boolean> {
    const removers = this.#packs.get(pack);
    if (removers === undefined) return false;
    this.#packs.delete(pack);
    for (const remove of removers) remove();
    const pending = new Set(this.#registry.pending().map((p) => p.name));
    for (const tool of pack.tools)
      if (this.#registry.get(tool.name) === tool || pending.has(tool.name)) this.#registry.remove(tool.name);
    const own = [...this.#entries.entries()].filter(([, e]) => e.pack === pack.name && e.resource !== undefined);
    await Promise.all(own.map(([c]) => this.close(c).catch(() => undefined)));
    for (const [c] of own) this.#entries.delete(c);
    return true;
  }

  /**
   * Attaches a source of tools that change while the session lives (MCP servers): its tools are
   * added and removed on the registry as it discovers them, the capabilities it drives follow the
   * states it reports (listed by {@link status}; a `failed` one is reported like a resource that
   * failed to open), and it is detached when the session closes, its capabilities then `closed`.
   */
  addSource(source: ToolSource): void {
    if (this.#closed) throw new ResourceUnavailableError('tool source', 'the session is closed');
    const owner = {};
    const name = source.name ?? 'tool source';
    const target: ToolSourceTarget = {
      add: (tool: Tool, options?: { readonly replace?: boolean }) => this.#registry.add(tool, options),
      remove: (toolName: string) => this.#registry.remove(toolName),
      resource: (capability, state, error) => this.#report(owner, name, capability, state, error),
    };
    const detach = source.attach(target);
    this.#detach.push(() => {
      detach();
      for (const [capability, e] of this.#entries)
        if (e.source === owner) this.#setSourceState(capability, e, 'closed');
    });
  }

  /** Opens every `session` resource (together); failures are reported, never thrown. */
  async openAtBuild(): Promise<void> {
    const atBuild = [...this.#entries.entries()].filter(
      ([, e]) => e.resource?.opens === 'session' && e.state === 'attached',
    );
    await Promise.all(atBuild.map(([c]) => this.acquire(c).catch(() => undefined)));
  }

  /** @inheritdoc */
  acquire(capability: ResourceCapability): Promise<OpenedResource> {
    const entry = this.#entries.get(capability);
    if (entry === undefined)
      return Promise.reject(new ResourceUnavailableError(capability, 'no pack of this session provides it'));
    if (entry.state === 'open' && entry.handle !== undefined) return Promise.resolve(entry.handle);
    if (entry.state === 'failed' && entry.error !== undefined) return Promise.reject(entry.error);
    if (entry.state === 'closed' || this.#closed)
      return Promise.reject(new ResourceUnavailableError(capability, 'it was closed'));
    if (entry.resource === undefined)
      return Promise.reject(new ResourceUnavailableError(capability, `it is ${entry.state}, not open`));
    entry.opening ??= this.#open(capability, entry.resource, entry);
    return entry.opening;
  }

  /** Closes one resource: its tools leave the surface (a source-driven one until its source reports it again). Idempotent. */
  async close(capability: ResourceCapability): Promise<void> {
    const entry = this.#entries.get(capability);
    if (entry === undefined || entry.state === 'closed') return;
    const handle = entry.handle;
    const wasFailed = entry.state === 'failed';
    entry.state = 'closed';
    delete entry.handle;
    if (!wasFailed) this.#registry.withdraw([capability]);
    if (handle !== undefined && entry.resource !== undefined) await handle.close();
  }

  /** Detaches every tool source and closes every resource (the session closes); errors of `close` are swallowed. Idempotent. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    for (const detach of this.#detach.splice(0)) detach();
    await Promise.all([...this.#entries.keys()].map((c) => this.close(c).catch(() => undefined)));
  }

  /** The packs plugged in now, in plug-in order. */
  packs(): readonly ToolPack[] {
    return [...this.#packs.keys()];
  }

  /** Every attached resource, in attach order. */
  status(): readonly ResourceStatus[] {
    return [...this.#entries.entries()].map(([capability, e]) => ({
      capability,
      pack: e.pack,
      opens: e.resource === undefined ? 'session' : (e.resource.opens ?? 'lazy'),
      state: e.state,
      ...(e.error ? { error: e.error } : {}),
    }));
  }

  /** Resources that failed to open so far, first one first (a source-driven capability: once per time it turned `failed`). */
  failures(): readonly ResourceOpenError[] {
    return [...this.#failures];
  }

  /** Calls `listener` with each resource that fails to open; returns its remover. */
  onFailure(listener: (error: ResourceOpenError) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #open(capability: ResourceCapability, resource: ToolResource, entry: Entry): Promise<OpenedResource> {
    entry.state = 'opening';
    let handle: OpenedResource;
    try {
      handle = await resource.open(this.#context);
      if (typeof handle?.close !== 'function') throw new TypeError('open() must resolve to an object with close()');
    } catch (cause) {
      return this.#fail(capability, entry, cause);
    } finally {
      delete entry.opening;
    }
    if ((entry.state as ResourceState) === 'closed') {
      // Closed while opening (the session closed): release what was opened and refuse.
      await handle.close().catch(() => undefined);
      throw new ResourceUnavailableError(capability, 'it was closed while opening');
    }
    entry.state = 'open';
    entry.handle = handle;
    if (resource.opens === 'session') this.#registry.provide([capability]);
    return handle;
  }

  /** A state a tool source reports for a capability it drives. */
  #report(
    owner: object,
    name: string,
    capability: ResourceCapability,
    state: SourceResourceState,
    error: unknown,
  ): void {
    if (this.#closed) return;
    const subject = `tool source '${name}'`;
    if (typeof capability !== 'string' || !SOURCE_CAPABILITY_RE.test(capability))
      throw new ToolDefinitionError(
        subject,
        'capability',
        `${JSON.stringify(capability)} must be 'mcp.<server>' (letters, digits, _ . -) or 'resource.<name>'`,
      );
    if (state !== 'opening' && state !== 'open' && state !== 'failed' && state !== 'closed')
      throw new ToolDefinitionError(subject, 'state', "must be 'opening', 'open', 'failed' or 'closed'");
    let entry = this.#entries.get(capability);
    if (entry !== undefined && entry.source !== owner) {
      throw new ToolDefinitionError(subject, 'capability', `'${capability}' is already provided by '${entry.pack}'`);
    }
    if (entry === undefined) {
      entry = { resource: undefined, pack: name, source: owner, state: 'closed' };
      this.#entries.set(capability, entry);
    }
    if (entry.state === state && state !== 'failed') return;
    this.#setSourceState(capability, entry, state, error);
  }

  #setSourceState(capability: ResourceCapability, entry: Entry, state: SourceResourceState, error?: unknown): void {
    if (state === 'failed') {
      const failure = new ResourceOpenError(capability, entry.pack, error ?? 'failed');
      if (entry.state === 'failed') {
        // Still failed, with more detail (an exit status, more stderr): shown, not reported again.
        entry.error = failure;
        return;
      }
      entry.state = 'failed';
      entry.error = failure;
      delete entry.handle;
      this.#registry.withdraw([capability]);
      this.#failures.push(failure);
      for (const l of this.#listeners) l(failure);
      return;
    }
    entry.state = state;
    delete entry.error;
    if (state === 'open') {
      entry.handle = SOURCE_HANDLE;
      this.#registry.provide([capability]);
    } else {
      delete entry.handle;
      this.#registry.withdraw([capability]);
    }
  }

  #fail(capability: ResourceCapability, entry: Entry, cause: unknown): never {
    const error = new ResourceOpenError(capability, entry.pack, cause);
    if (entry.state !== 'closed') {
      entry.state = 'failed';
      entry.error = error;
      this.#registry.withdraw([capability]);
      this.#failures.push(error);
      for (const l of this.#listeners) l(error);
    }
    throw error;
  }
}
