/**
 * The supervisor: at most one server per (language, root), started on first use only when the
 * root marker exists AND the binary resolves. A server that exits unexpectedly is restarted once,
 * on its next use; a second crash leaves it down until `reload`. Everything is killed on close.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { LspClient } from './client.js';
import { LspError } from './lsp-errors.js';
import { type CallHold, NO_HOLD, type ServerLaunch, serverLaunch } from './server-hold.js';
import type { ServerCommand } from './server-command.js';
import { LSP_SERVERS, type ServerSpec, findRoot, serverForPath } from './servers.js';

/** The real path of `abs` (symbolic links resolved), or `undefined` when it does not exist. */
function realOrUndefined(abs: string): string | undefined {
  try {
    return realpathSync(abs);
  } catch {
    return undefined;
  }
}

/** One server entry as `status` reports it. */
export interface ServerState {
  readonly server: string;
  readonly root: string;
  readonly state: 'starting' | 'running' | 'crashed' | 'failed' | 'stopped';
  readonly restarts: number;
  readonly startMs?: number;
  readonly reason?: string;
}

/**
 * Why a file has no server, or the server that serves it. `root` is set on a refusal for the
 * project there (see `ServerSpec.refuses`).
 */
export type Availability =
  | { readonly ok: true; readonly spec: ServerSpec; readonly root: string }
  | { readonly ok: false; readonly reason: string; readonly spec?: ServerSpec; readonly root?: string };

interface Entry {
  readonly spec: ServerSpec;
  readonly root: string;
  client?: Promise<LspClient>;
  /** The client once started (while it runs). */
  ready?: LspClient;
  state: ServerState['state'];
  restarts: number;
  crashes: number;
  startMs?: number;
  reason?: string;
  /** The files kept from the running server, one key (see `server-hold.ts`). */
  key: string;
}

/** The state every view of one workspace's supervisor shares. */
interface Pool {
  readonly entries: Map<string, Entry>;
  closed: boolean;
}

/** A running server for a file, and whether it keeps the call's hidden files from itself. */
export interface ServedClient {
  readonly client: LspClient;
  readonly spec: ServerSpec;
  readonly root: string;
  /** False when read rules hide files from the call and the server could not be kept from them. */
  readonly kept: boolean;
}

/** The session's language servers. */
export class LspSupervisor {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_LspSupervisor`; people read `LspSupervisor`.
    Object.defineProperty(this, 'name', { value: 'LspSupervisor' });
  }
  readonly #workspaceRoot: string;
  #realRoot: string | undefined;
  #pool: Pool = { entries: new Map(), closed: false };
  #hold: CallHold = NO_HOLD;
  /** How each server starts for this view's call, by server id. */
  readonly #launches = new Map<string, Promise<ServerLaunch>>();
  /** The servers this supervisor can start, in lookup order. */
  readonly servers: readonly ServerSpec[];

  constructor(workspaceRoot: string, servers: readonly ServerSpec[] = LSP_SERVERS) {
    this.#workspaceRoot = resolve(workspaceRoot);
    this.servers = servers;
  }

  /**
   * This supervisor as a call held by `hold` uses it: the same servers, each started (or
   * restarted) through the call's hold so that the files its read rules hide are out of the
   * server's reach (see `server-hold.ts`).
   */
  forCall(hold: CallHold): LspSupervisor {
    const view = new LspSupervisor(this.#workspaceRoot, this.servers);
    view.#pool = this.#pool;
    view.#hold = hold;
    return view;
  }

  /**
   * How a process of the pack (a project checker) starts for this view's call: through the call's
   * hold, with the files its read rules hide out of reach (see `server-hold.ts`).
   */
  launch(cmd: ServerCommand): Promise<ServerLaunch> {
    return serverLaunch(cmd, this.#hold);
  }

  /** The workspace root on disk. */
  get workspaceRoot(): string {
    return this.#workspaceRoot;
  }

  /** {@link absolute}, or `undefined` for a path it refuses. */
  tryAbsolute(path: string): string | undefined {
    try {
      return this.absolute(path);
    } catch {
      return undefined;
    }
  }

  /**
   * The absolute path of a workspace-relative (or absolute, inside the workspace) path. A path
   * that leaves the workspace, also through a symbolic link, is refused (`LSP_PATH`).
   */
  absolute(path: string): string {
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.#workspaceRoot, path);
    const rel = relative(this.#workspaceRoot, abs);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new LspError('LSP_PATH', `${path} is outside the workspace`, { path });
    const real = realOrUndefined(abs);
    if (real !== undefined) {
      this.#realRoot ??= realOrUndefined(this.#workspaceRoot) ?? this.#workspaceRoot;
      const realRel = relative(this.#realRoot, real);
      if (realRel.startsWith('..') || isAbsolute(realRel))
        throw new LspError('LSP_PATH', `${path} resolves through a symbolic link to a place outside the workspace`, {
          path,
        });
    }
    return abs;
  }

  /**
   * The real path of `abs` when it is inside the workspace with every symbolic link resolved, else
   * `undefined` (outside, through a link leading out, or missing).
   */
  realInside(abs: string): string | undefined {
    const real = realOrUndefined(abs);
    if (real === undefined) return undefined;
    this.#realRoot ??= realOrUndefined(this.#workspaceRoot) ?? this.#workspaceRoot;
    const rel = relative(this.#realRoot, real);
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : real;
  }

  /** The workspace-relative path of an absolute path (absolute when outside). */
  display(abs: string): string {
    const rel = relative(this.#workspaceRoot, abs);
    return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
  }

  /** Which server would serve `absFile`, or exactly which condition fails. Starts nothing. */
  availability(absFile: string): Availability {
    const spec = serverForPath(absFile, this.servers);
    if (spec === undefined)
      return { ok: false, reason: `no language server serves files like ${this.display(absFile)}` };
    const root = findRoot(spec, absFile, this.#workspaceRoot);
    if (root === undefined)
      return {
        ok: false,
        spec,
        reason: `no root marker for ${spec.id}: none of ${spec.rootMarkers.join(', ')} in the file's folder or above it inside the workspace`,
      };
    const refused = spec.refuses?.(root, this.#workspaceRoot);
    if (refused !== undefined) return { ok: false, spec, root, reason: refused };
    const cmd = spec.resolve();
    if ('missing' in cmd)
      return { ok: false, spec, reason: `the ${spec.id} server binary does not resolve: ${cmd.missing}` };
    return { ok: true, spec, root };
  }

  /**
   * The running (or starting) server for `absFile`; throws `LSP_UNAVAILABLE` with the reason. A
   * server running for a project its spec now refuses is stopped first.
   */
  async clientFor(absFile: string): Promise<ServedClient> {
    const a = this.availability(absFile);
    if (!a.ok) {
      if (a.spec !== undefined && a.root !== undefined) await this.#stop(a.spec, a.root, a.reason);
      throw new LspError('LSP_UNAVAILABLE', a.reason, { path: this.display(absFile) });
    }
    return { ...(await this.#client(a.spec, a.root)), spec: a.spec, root: a.root };
  }

  /** The running (or starting) server of `spec` for the project at `root` (checked as {@link availability} does). */
  async clientAt(spec: ServerSpec, root: string): Promise<ServedClient> {
    const refused = spec.refuses?.(root, this.#workspaceRoot);
    if (refused !== undefined) {
      await this.#stop(spec, root, refused);
      throw new LspError('LSP_UNAVAILABLE', refused, { server: spec.id });
    }
    return { ...(await this.#client(spec, root)), spec, root };
  }

  /** The servers running (or starting) now, with their project roots. */
  running(): { readonly spec: ServerSpec; readonly root: string }[] {
    return [...this.#pool.entries.values()]
      .filter((e) => e.client !== undefined)
      .map((e) => ({ spec: e.spec, root: e.root }));
  }

  /** Stops the server for (spec, root), if one runs or starts, and records why. */
  async #stop(spec: ServerSpec, root: string, reason: string): Promise<void> {
    const entry = this.#pool.entries.get(key(spec, root));
    if (entry?.client === undefined) return;
    const old = entry.client;
    entry.client = undefined;
    entry.ready = undefined;
    entry.state = 'stopped';
    entry.reason = reason;
    await old.then((c) => c.close()).catch(() => {});
  }

  /** Whether a running server already has `absFile` open (starts nothing). */
  isOpen(absFile: string): boolean {
    for (const e of this.#pool.entries.values()) if (e.ready?.isOpen(absFile) === true && !e.ready.exited) return true;
    return false;
  }

  /** The server entries, for `status`. */
  states(): ServerState[] {
    return [...this.#pool.entries.values()].map((e) => ({
      server: e.spec.id,
      root: this.display(e.root) || '.',
      state: e.state,
      restarts: e.restarts,
      ...(e.startMs === undefined ? {} : { startMs: Math.round(e.startMs) }),
      ...(e.reason === undefined ? {} : { reason: e.reason }),
    }));
  }

  /** Stops the server for (spec, root) if running and starts it again (unless its spec refuses the project). */
  async reload(spec: ServerSpec, root: string): Promise<ServedClient> {
    const refused = spec.refuses?.(root, this.#workspaceRoot);
    if (refused !== undefined) {
      await this.#stop(spec, root, refused);
      throw new LspError('LSP_UNAVAILABLE', refused, { server: spec.id });
    }
    const entry = this.#pool.entries.get(key(spec, root));
    if (entry?.client !== undefined) {
      const old = entry.client;
      entry.client = undefined;
      entry.ready = undefined;
      entry.state = 'stopped';
      await old.then((c) => c.close()).catch(() => {});
    }
    if (entry !== undefined) {
      entry.crashes = 0;
      entry.restarts++;
    }
    return { ...(await this.#client(spec, root)), spec, root };
  }

  /** Kills every server. */
  async close(): Promise<void> {
    this.#pool.closed = true;
    const all = [...this.#pool.entries.values()];
    this.#pool.entries.clear();
    await Promise.all(all.map((e) => e.client?.then((c) => c.close()).catch(() => {})));
  }

  /** How `spec`'s server starts for this view's call (asked of the call's hold once per server). */
  #launch(spec: ServerSpec): Promise<ServerLaunch> {
    let launch = this.#launches.get(spec.id);
    if (launch === undefined) {
      const cmd = spec.resolve();
      if ('missing' in cmd) return Promise.reject(new LspError('LSP_UNAVAILABLE', cmd.missing));
      launch = serverLaunch(cmd, this.#hold);
      this.#launches.set(spec.id, launch);
    }
    return launch;
  }

  async #client(spec: ServerSpec, root: string): Promise<{ client: LspClient; kept: boolean }> {
    if (this.#pool.closed) throw new LspError('LSP_UNAVAILABLE', 'the session is closed');
    const launch = await this.#launch(spec);
    // From here to the start nothing is awaited: calls at the same time share one start.
    if (this.#pool.closed) throw new LspError('LSP_UNAVAILABLE', 'the session is closed');
    const k = key(spec, root);
    let entry = this.#pool.entries.get(k);
    if (entry === undefined) {
      entry = { spec, root, state: 'stopped', restarts: 0, crashes: 0, key: '' };
      this.#pool.entries.set(k, entry);
    }
    if (entry.client !== undefined && entry.key === launch.key)
      return { client: await entry.client, kept: launch.kept };
    if (entry.client !== undefined) {
      // Started keeping other files from itself than this call's rules hide: restarted for the call.
      const old = entry.client;
      entry.client = undefined;
      entry.ready = undefined;
      entry.restarts++;
      void old.then((c) => c.close()).catch(() => {});
    } else if (entry.state === 'crashed' && entry.crashes >= 2)
      throw new LspError(
        'LSP_SERVER',
        `the ${spec.id} server for ${this.display(root) || '.'} crashed twice; call lsp reload`,
        { server: spec.id },
      );
    else if (entry.state === 'crashed') entry.restarts++;
    const e = entry;
    e.state = 'starting';
    e.key = launch.key;
    const started = LspClient.start(launch.command, root, {
      apart: launch.apart,
      versionedDiagnostics: spec.versionedDiagnostics === true,
    }).then(
      (client) => {
        // Replaced meanwhile (and closed by whoever replaced it).
        if (e.client !== started) return client;
        e.state = 'running';
        e.ready = client;
        e.startMs = client.startMs;
        e.reason = undefined;
        client.onExit(() => {
          if (e.client !== started) return;
          e.client = undefined;
          e.ready = undefined;
          e.crashes++;
          e.state = 'crashed';
          e.reason = 'the server process exited; it restarts on next use';
        });
        if (this.#pool.closed) void client.close();
        return client;
      },
      (error: unknown) => {
        if (e.client === started) {
          e.client = undefined;
          e.state = 'failed';
          e.crashes++;
          e.reason = error instanceof Error ? error.message : String(error);
        }
        throw new LspError(
          'LSP_SERVER',
          `the ${spec.id} server did not start: ${error instanceof Error ? error.message : String(error)}`,
          { server: spec.id },
          error,
        );
      },
    );
    e.client = started;
    return { client: await started, kept: launch.kept };
  }
}

function key(spec: ServerSpec, root: string): string {
  return `${spec.id}\u0000${root}`;
}
