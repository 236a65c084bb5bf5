/**
 * Whether a language server has loaded its project. A server answers a project-wide question
 * (references, rename, implementations, workspace symbols) from the files it has found so far:
 * asked while it is still looking, it answers from part of the project and does not say so
 * (pyright renamed the declaration alone and left its importers broken). Two signals say it is
 * still loading: work-done progress the server began and has not ended (`$/progress`, which the
 * client enables with `window.workDoneProgress`), and, for a server that reports its file search
 * only in its log (pyright: `Found 3 source files`), the {@link LoadLog} of its command.
 * Single-file operations never wait for this.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';

/** How a server's log (`window/logMessage`) tells that it is loading its project and when it has. */
export interface LoadLog {
  /** A message that starts (again) the search for the project's files, e.g. on a configuration change. */
  readonly begins?: RegExp;
  /** The message that ends it. Until the first one, the project counts as loading. */
  readonly ends: RegExp;
}

/** The longest a project-wide operation waits for the project to load. */
export const PROJECT_LOAD_CAP_MS = 20_000;

/** The loading state of one server's project. */
export class ProjectLoad {
  readonly #log: LoadLog | undefined;
  /** Work-done progress begun and not ended, by token. */
  readonly #active = new Set<string | number>();
  #logLoading: boolean;
  #gone = false;
  readonly #waiters = new Set<() => void>();

  constructor(log?: LoadLog) {
    this.#log = log;
    this.#logLoading = log !== undefined;
  }

  /** Listens to the server's log and progress on `connection` (before it listens). */
  attach(connection: MessageConnection): void {
    connection.onNotification('window/logMessage', (p: { message?: unknown } | null) => {
      const message = typeof p?.message === 'string' ? p.message : '';
      if (this.#log === undefined || message === '') return;
      if (this.#log.ends.test(message)) this.#set(false);
      else if (this.#log.begins?.test(message) === true) this.#set(true);
    });
    connection.onUnhandledProgress((p: { token?: unknown; value?: unknown }) => {
      const kind = (p.value as { kind?: unknown } | null)?.kind;
      if (typeof p.token !== 'string' && typeof p.token !== 'number') return;
      if (kind === 'begin') this.#active.add(p.token);
      else if (kind === 'end') this.#active.delete(p.token);
      else return;
      this.#wake();
    });
  }

  /** Whether the project is loaded as far as the server says (no progress under way, its log says found). */
  get loaded(): boolean {
    return !this.#logLoading && this.#active.size === 0;
  }

  /** What the server is still doing, for a message (`loading its project` when it names nothing). */
  get doing(): string {
    return this.#logLoading || this.#active.size === 0 ? 'loading its project' : 'still working (progress under way)';
  }

  /** The server has exited: waits end. */
  gone(): void {
    this.#gone = true;
    this.#wake();
  }

  /**
   * Waits until the project is loaded, the server exits, `signal` aborts or `capMs` pass; returns
   * false when the project is still loading (true once the server exited: its requests fail apart).
   */
  async wait(signal: AbortSignal, capMs = PROJECT_LOAD_CAP_MS): Promise<boolean> {
    const deadline = performance.now() + capMs;
    while (!this.loaded && !this.#gone && !signal.aborted) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        signal.addEventListener('abort', done, { once: true });
        this.#waiters.add(done);
      });
    }
    return this.loaded || this.#gone;
  }

  #set(loading: boolean): void {
    this.#logLoading = loading;
    this.#wake();
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }
}

/** pyright's log of its search for the project's source files (see `sourceEnumerator`). */
export const PYRIGHT_LOAD_LOG: LoadLog = {
  begins: /^Loading (pyproject\.toml|configuration) file at /,
  ends: /^(Found \d+ source files?|No source files found\.)$/,
};

/** The note a project-wide answer carries when the server had not loaded its project by the cap. */
export function loadingNote(doing: string, capMs = PROJECT_LOAD_CAP_MS): string {
  return `(the language server was ${doing} after ${Math.round(capMs / 1000)} s: this answer may be incomplete; ask again later)`;
}
