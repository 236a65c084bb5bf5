/**
 * One running language server: a child process speaking JSON-RPC over stdio through
 * `vscode-jsonrpc/node` (imported here, on first start, never at module load). It answers the
 * server's requests a client must answer (`workspace/configuration`,
 * `window/workDoneProgress/create`, `client/registerCapability`), keeps the documents it opened in
 * sync, and records the diagnostics the server publishes.
 */
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { DocumentDiagnostics } from './document-diagnostics.js';
import type { LspDiagnostic } from './protocol.js';
import { CLIENT_CAPABILITIES } from './client-capabilities.js';
import { ProjectLoad } from './project-load.js';
import type { ServerCommand } from './server-command.js';
import { holdLoop, killedOnExit } from '../shared/loop-hold.js';
import { type ServerTmpDir, spawnServer } from './server-tmpdir.js';

const REQUEST_TIMEOUT_MS = 20_000;

/** The file URI of an absolute path. */
export function uriOf(absPath: string): string {
  return pathToFileURL(absPath).href;
}

/** The servers alive in this process, killed by its exit hook (an idle server holds no loop). */
const live = killedOnExit<LspClient>();

/** A started, initialized server. */
export class LspClient {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_LspClient`; people read `LspClient`.
    Object.defineProperty(this, 'name', { value: 'LspClient' });
  }
  readonly #process: ChildProcess;
  readonly #connection: MessageConnection;
  readonly #versions = new Map<string, number>();
  readonly #texts = new Map<string, string>();
  #diagnostics = new DocumentDiagnostics(false, (uri) => this.#versions.get(uri));
  #exited = false;
  /** How the process ended (`code N` or `signal NAME`), once it has. */
  #exitedHow = '';
  #exitListeners: (() => void)[] = [];
  /** Milliseconds from spawn to `initialized`. */
  startMs = 0;
  #documentLinks = false;
  readonly #tmp: ServerTmpDir;
  /** Whether the server has loaded its project (project-wide operations wait for it). */
  readonly load: ProjectLoad;

  private constructor(process: ChildProcess, connection: MessageConnection, tmp: ServerTmpDir, load: ProjectLoad) {
    this.#process = process;
    this.#connection = connection;
    this.#tmp = tmp;
    this.load = load;
    process.once('exit', (code, sig) => {
      tmp.remove();
      load.gone();
      this.#exitedHow = sig === null ? `code ${code}` : `signal ${sig}`;
      this.#exited = true;
      for (const l of this.#exitListeners) l();
      this.#diagnostics.wake();
    });
  }

  /**
   * Spawns and initializes the server in `root`; `apart` (a process namespace of its own): no pid
   * is sent; `versionedDiagnostics`: the server versions its diagnostics of open documents, so one
   * without a version is of the file on disk (also learned from its first versioned publication).
   */
  static async start(
    cmd: ServerCommand,
    root: string,
    options: { readonly apart?: boolean; readonly versionedDiagnostics?: boolean } = {},
  ): Promise<LspClient> {
    const t0 = performance.now();
    const rpc = await import('vscode-jsonrpc/node');
    const { child, tmp } = spawnServer(cmd, root);
    const failed = new Promise<never>((_, reject) => {
      child.once('error', reject);
      child.once('exit', (code, sig) =>
        reject(new Error(`the server exited during start (code ${code}, signal ${sig})`)),
      );
    });
    failed.catch(() => {});
    const connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(child.stdout!),
      new rpc.StreamMessageWriter(child.stdin!),
    );
    const client = new LspClient(child, connection, tmp, new ProjectLoad(cmd.loadLog));
    client.#diagnostics = new DocumentDiagnostics(options.versionedDiagnostics === true, (uri) =>
      client.#versions.get(uri),
    );
    client.load.attach(connection);
    connection.onRequest('workspace/configuration', (params: { items?: { section?: unknown }[] }) =>
      (params.items ?? []).map((item) =>
        typeof item?.section === 'string' &&
        cmd.configuration !== undefined &&
        Object.hasOwn(cmd.configuration, item.section)
          ? cmd.configuration[item.section]
          : null,
      ),
    );
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: uriOf(root), name: 'root' }]);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('workspace/applyEdit', () => ({
      applied: false,
      failureReason: 'edits go through lsp_rename',
    }));
    connection.onNotification(
      'textDocument/publishDiagnostics',
      (p: { uri: string; diagnostics: LspDiagnostic[]; version?: number | null }) =>
        client.#diagnostics.publish(p.uri, p.diagnostics, typeof p.version === 'number' ? p.version : undefined),
    );
    connection.onError(() => {});
    child.stdin!.on('error', () => {});
    connection.listen();
    const init = connection.sendRequest('initialize', {
      processId: options.apart === true ? null : process.pid,
      rootUri: uriOf(root),
      workspaceFolders: [{ uri: uriOf(root), name: 'root' }],
      initializationOptions: cmd.initializationOptions ?? {},
      capabilities: CLIENT_CAPABILITIES,
    });
    try {
      const result = await Promise.race([init, failed, timeout(REQUEST_TIMEOUT_MS, 'initialize')]);
      const caps = (result as { capabilities?: { documentLinkProvider?: unknown } } | null)?.capabilities;
      const links = caps?.documentLinkProvider;
      client.#documentLinks = links !== undefined && links !== null && links !== false;
    } catch (error) {
      client.#kill();
      throw error;
    }
    client.#notify('initialized', {});
    client.startMs = performance.now() - t0;
    client.#holdLoop(false);
    live.add(client);
    return client;
  }

  /** Requests and closing under way: while there are any, the server keeps Node's event loop alive. */
  #active = 0;

  /**
   * Whether the server keeps Node's event loop alive: only while a request or the close is under
   * way. An idle server does not, so a script that used `lsp` ends on its own (the exit hook then
   * kills the server).
   */
  #holdLoop(on: boolean): void {
    const c = this.#process;
    holdLoop([c, c.stdin, c.stdout], on);
  }

  #begin(): void {
    if (this.#active++ === 0) this.#holdLoop(true);
  }

  #end(): void {
    if (--this.#active === 0) this.#holdLoop(false);
  }

  /** Whether the server answers `textDocument/documentLink` (its `initialize` result says so). */
  get documentLinks(): boolean {
    return this.#documentLinks;
  }

  /** True once the process has exited. */
  get exited(): boolean {
    return this.#exited;
  }

  /** Calls `listener` when the process exits. */
  onExit(listener: () => void): void {
    this.#exitListeners.push(listener);
  }

  /** How many documents this client has opened. */
  get openDocuments(): number {
    return this.#versions.size;
  }

  /** The text last synced for an open document (`undefined` when it is not open). */
  textOf(absPath: string): string | undefined {
    return this.#texts.get(uriOf(absPath));
  }

  /** Whether the document is open. */
  isOpen(absPath: string): boolean {
    return this.#versions.has(uriOf(absPath));
  }

  /**
   * Opens the document, or sends its new text when open and changed; returns whether anything
   * was sent. `onDisk` false: the text is not the file's on disk (a write's old text).
   */
  sync(absPath: string, languageId: string, text: string, onDisk = true): boolean {
    const uri = uriOf(absPath);
    const version = this.#versions.get(uri);
    if (this.#texts.get(uri) !== text || version === undefined) this.#diagnostics.sent(uri, onDisk);
    if (version === undefined) {
      this.#versions.set(uri, 1);
      this.#texts.set(uri, text);
      this.#notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
      return true;
    }
    if (this.#texts.get(uri) === text) return false;
    this.#versions.set(uri, version + 1);
    this.#texts.set(uri, text);
    this.#notify('textDocument/didChange', { textDocument: { uri, version: version + 1 }, contentChanges: [{ text }] });
    return true;
  }

  /** Sends a notification; one to a server that has gone (its stream destroyed) fails quietly, its exit handled apart. */
  #notify(method: string, params?: object): void {
    this.#connection.sendNotification(method, params).catch(() => undefined);
  }

  /** Sends `didSave` with the text. */
  save(absPath: string, text: string): void {
    this.#notify('textDocument/didSave', { textDocument: { uri: uriOf(absPath) }, text });
  }

  /** The publication count of a document (to wait for the next one). */
  publications(absPath: string): number {
    return this.#diagnostics.count(uriOf(absPath));
  }

  /** The latest diagnostics published for a document. */
  diagnostics(absPath: string): readonly LspDiagnostic[] {
    return this.#diagnostics.latest(uriOf(absPath));
  }

  /** Whether the latest publication for the document names a version older than its current one. */
  outdated(absPath: string): boolean {
    return this.#diagnostics.outdated(uriOf(absPath));
  }

  /** Whether the latest publication for the document is known to be of its current text (see `document-diagnostics.ts`). */
  current(absPath: string, after: number): boolean {
    return this.#diagnostics.current(uriOf(absPath), after);
  }

  /** The latest diagnostics known for a document: pulled (see {@link remember}) or else published. */
  lastDiagnostics(absPath: string): readonly LspDiagnostic[] {
    return this.#diagnostics.last(uriOf(absPath));
  }

  /** Records diagnostics pulled from the server for the document's current text. */
  remember(absPath: string, diagnostics: readonly LspDiagnostic[]): void {
    this.#diagnostics.remember(uriOf(absPath), diagnostics);
  }

  /**
   * Waits until the server published diagnostics for the document after publication `after`
   * and then stayed quiet for `quietMs`, or `capMs` passed; returns the latest diagnostics and
   * whether they settled.
   */
  settle(
    absPath: string,
    after: number,
    signal: AbortSignal,
    quietMs?: number,
    capMs?: number,
  ): Promise<{ diagnostics: readonly LspDiagnostic[]; settled: boolean }> {
    return this.#diagnostics.settle(uriOf(absPath), after, () => this.#exited || signal.aborted, quietMs, capMs);
  }

  /** Sends a request; rejects on the server's error, an exit, the signal or a 20 s timeout. */
  async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    if (this.#exited) throw new Error('the server is not running');
    this.#begin();
    const work = this.#connection.sendRequest<T>(method, params);
    // A server that dies while answering never answers: the call fails as soon as it exits.
    let onExit: (() => void) | undefined;
    const died = new Promise<never>((_, reject) => {
      onExit = () => reject(new Error(`the server exited (${this.#exitedHow}) before answering ${method}`));
      this.#exitListeners.push(onExit);
    });
    const races: Promise<T>[] = [work, died, timeout(REQUEST_TIMEOUT_MS, method)];
    let onAbort: (() => void) | undefined;
    if (signal !== undefined)
      races.push(
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason);
          onAbort = () => reject(signal.reason);
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      );
    try {
      return await Promise.race(races);
    } finally {
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
      this.#exitListeners = this.#exitListeners.filter((l) => l !== onExit);
      this.#end();
    }
  }

  /** Shuts the server down (politely, then by signal). */
  async close(): Promise<void> {
    live.delete(this);
    if (this.#exited) return;
    this.#begin();
    try {
      await Promise.race([this.#connection.sendRequest('shutdown'), timeout(500, 'shutdown')]);
      this.#notify('exit');
    } catch {
      // killed below
    }
    await new Promise<void>((resolve) => {
      if (this.#exited) return resolve();
      const t = setTimeout(() => {
        // Its exit event may not come before this process ends: the folder goes now.
        this.kill();
        resolve();
      }, 300);
      this.onExit(() => {
        clearTimeout(t);
        resolve();
      });
    });
    this.#end();
    this.#connection.dispose();
  }

  /** Kills the process at once (a crash in tests; the exit hook, when no exit event comes: the temporary folder goes too). */
  kill(): void {
    this.#kill();
    this.#tmp.remove();
  }

  #kill(): void {
    if (!this.#exited) this.#process.kill('SIGKILL');
  }
}

function timeout(ms: number, what: string): Promise<never> {
  return new Promise<never>((_, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} got no answer within ${ms} ms`)), ms);
    t.unref?.();
  });
}
