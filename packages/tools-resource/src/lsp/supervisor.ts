/**
 * The supervisor: at most one server per (language, root), started on first use only when the
 * root marker exists AND the binary resolves. A server that exits unexpectedly is restarted once,
 * on its next use; a second crash leaves it down until `reload`. Everything is killed on close.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { LspClient } from './client.js';
import { LspError } from './lsp-errors.js';
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
}

/** The session's language servers. */
export class LspSupervisor {
  readonly #workspaceRoot: string;
  #realRoot: string | undefined;
  readonly #entries = new Map<string, Entry>();
  #closed = false;
  /** The servers this supervisor can start, in lookup order. */
  readonly servers: readonly ServerSpec[];

  constructor(workspaceRoot: string, servers: readonly ServerSpec[] = LSP_SERVERS) {
    this.#workspaceRoot = resolve(workspaceRoot);
    this.servers = servers;
  }

  /** The workspace root on disk. */
  get workspaceRoot(): string {
    return this.#workspaceRoot;
  }

  /**
   * The absolute path of a workspace-relative (or absolute, inside the workspace) path. A path
   * that leaves the workspace, also through a symbolic link, is refused (`LSP_PATH`).
   */
  absolute(path: string): string {
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.#workspaceRoot, path);
    const rel = relative(this.#workspaceRoot, abs);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new LspError('LSP_PATH', `${path} is outside the workspace ${this.#workspaceRoot}`, { path });
    const real = realOrUndefined(abs);
    if (real !== undefined) {
      this.#realRoot ??= realOrUndefined(this.#workspaceRoot) ?? this.#workspaceRoot;
      const realRel = relative(this.#realRoot, real);
      if (realRel.startsWith('..') || isAbsolute(realRel))
        throw new LspError(
          'LSP_PATH',
          `${path} resolves through a symbolic link to a place outside the workspace ${this.#workspaceRoot}`,
          { path },
        );
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
  async clientFor(absFile: string): Promise<{ client: LspClient; spec: ServerSpec; root: string }> {
    const a = this.availability(absFile);
    if (!a.ok) {
      if (a.spec !== undefined && a.root !== undefined) await this.#stop(a.spec, a.root, a.reason);
      throw new LspError('LSP_UNAVAILABLE', a.reason, { path: this.display(absFile) });
    }
    return { client: await this.#client(a.spec, a.root), spec: a.spec, root: a.root };
  }

  /** Stops the server for (spec, root), if one runs or starts, and records why. */
  async #stop(spec: ServerSpec, root: string, reason: string): Promise<void> {
    const entry = this.#entries.get(key(spec, root));
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
    for (const e of this.#entries.values()) if (e.ready?.isOpen(absFile) === true && !e.ready.exited) return true;
    return false;
  }

  /** The server entries, for `status`. */
  states(): ServerState[] {
    return [...this.#entries.values()].map((e) => ({
      server: e.spec.id,
      root: this.display(e.root) || '.',
      state: e.state,
      restarts: e.restarts,
      ...(e.startMs === undefined ? {} : { startMs: Math.round(e.startMs) }),
      ...(e.reason === undefined ? {} : { reason: e.reason }),
    }));
  }

  /** Stops the server for (spec, root) if running and starts it again (unless its spec refuses the project). */
  async reload(spec: ServerSpec, root: string): Promise<LspClient> {
    const refused = spec.refuses?.(root, this.#workspaceRoot);
    if (refused !== undefined) {
      await this.#stop(spec, root, refused);
      throw new LspError('LSP_UNAVAILABLE', refused, { server: spec.id });
    }
    const entry = this.#entries.get(key(spec, root));
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
    return this.#client(spec, root);
  }

  /** Kills every server. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => e.client?.then((c) => c.close()).catch(() => {})));
  }

  #client(spec: ServerSpec, root: string): Promise<LspClient> {
    if (this.#closed) return Promise.reject(new LspError('LSP_UNAVAILABLE', 'the session is closed'));
    const k = key(spec, root);
    let entry = this.#entries.get(k);
    if (entry === undefined) {
      entry = { spec, root, state: 'stopped', restarts: 0, crashes: 0 };
      this.#entries.set(k, entry);
    }
    if (entry.client !== undefined) return entry.client;
    if (entry.state === 'crashed' && entry.crashes >= 2)
      return Promise.reject(
        new LspError(
          'LSP_SERVER',
          `the ${spec.id} server for ${this.display(root) || '.'} crashed twice; call lsp reload`,
          {
            server: spec.id,
          },
        ),
      );
    if (entry.state === 'crashed') entry.restarts++;
    const e = entry;
    const cmd = spec.resolve();
    if ('missing' in cmd) return Promise.reject(new LspError('LSP_UNAVAILABLE', cmd.missing));
    e.state = 'starting';
    const started = LspClient.start(cmd, root, []).then(
      (client) => {
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
        if (this.#closed) void client.close();
        return client;
      },
      (error: unknown) => {
        e.client = undefined;
        e.state = 'failed';
        e.crashes++;
        e.reason = error instanceof Error ? error.message : String(error);
        throw new LspError(
          'LSP_SERVER',
          `the ${spec.id} server did not start: ${e.reason}`,
          { server: spec.id },
          error,
        );
      },
    );
    e.client = started;
    return started;
  }
}

function key(spec: ServerSpec, root: string): string {
  return `${spec.id}\u0000${root}`;
}
