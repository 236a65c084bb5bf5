/**
 * The diagnostics a language server published (or the client pulled) for its open documents,
 * and the wait for them to settle after a change. A server that versions its diagnostics of
 * open documents may still publish some without a version: of the file as it is on disk (gopls
 * while it loads its packages). Such a publication stands for the document only while the text
 * sent is the text on disk; for a document opened with other text (a write's old text, sent
 * after the write), it counts only when no versioned publication follows within
 * {@link DISK_GRACE_MS} (the server found nothing new to say about the text sent).
 */
import type { LspDiagnostic } from './protocol.js';

/** How long diagnostics must stay quiet before they count as settled. */
export const DIAGNOSTICS_QUIET_MS = 150;
/** The longest wait for a file's diagnostics after a change. */
export const DIAGNOSTICS_CAP_MS = 3000;
/** How long a publication of a file on disk waits for one of the text sent, which comes first. */
export const DISK_GRACE_MS = 1500;

interface Published {
  readonly diagnostics: readonly LspDiagnostic[];
  /** Counts publications for the uri. */
  readonly count: number;
  readonly at: number;
  /** The document version the server says they are for, when it says. */
  readonly version?: number;
}

/** The diagnostics of one server's documents, by uri. */
export class DocumentDiagnostics {
  readonly #published = new Map<string, Published>();
  readonly #pulled = new Map<string, readonly LspDiagnostic[]>();
  /** Documents whose text sent is not the text on disk. */
  readonly #notOnDisk = new Set<string>();
  readonly #waiters = new Set<() => void>();
  readonly #version: (uri: string) => number | undefined;
  #versioned: boolean;

  /** `version`: the version of the text sent for a document, undefined when it is not open. */
  constructor(versioned: boolean, version: (uri: string) => number | undefined) {
    this.#versioned = versioned;
    this.#version = version;
  }

  /** Records a publication; one naming a version tells that the server versions its diagnostics. */
  publish(uri: string, diagnostics: readonly LspDiagnostic[], version: number | undefined): void {
    if (version !== undefined) this.#versioned = true;
    const prev = this.#published.get(uri);
    const at = performance.now();
    const count = (prev?.count ?? 0) + 1;
    this.#published.set(uri, version === undefined ? { diagnostics, count, at } : { diagnostics, count, at, version });
    this.wake();
  }

  /** A new text was sent for the document; `onDisk`: it is the file's text on disk. */
  sent(uri: string, onDisk: boolean): void {
    this.#pulled.delete(uri);
    if (onDisk) this.#notOnDisk.delete(uri);
    else this.#notOnDisk.add(uri);
  }

  /** The publication count of a document (to wait for the next one). */
  count(uri: string): number {
    return this.#published.get(uri)?.count ?? 0;
  }

  /** The latest diagnostics published for a document. */
  latest(uri: string): readonly LspDiagnostic[] {
    return this.#published.get(uri)?.diagnostics ?? [];
  }

  /** Whether the latest publication names a version older than the document's current one. */
  outdated(uri: string): boolean {
    const p = this.#published.get(uri);
    const version = this.#version(uri);
    return p?.version !== undefined && version !== undefined && p.version < version;
  }

  /**
   * Whether the latest publication is known to be of the document's current text: the server
   * said it is of the current version, or (naming none) it came after publication `after` and is
   * not of a file on disk that differs from the text sent.
   */
  current(uri: string, after: number): boolean {
    const p = this.#published.get(uri);
    if (p === undefined) return false;
    const version = this.#version(uri);
    if (p.version !== undefined && version !== undefined) return p.version >= version;
    return p.count > after && !this.#ofOtherText(uri, p);
  }

  /** The latest diagnostics known for a document: pulled (see {@link remember}) or else published. */
  last(uri: string): readonly LspDiagnostic[] {
    return this.#pulled.get(uri) ?? this.latest(uri);
  }

  /** Records diagnostics pulled from the server for the document's current text. */
  remember(uri: string, diagnostics: readonly LspDiagnostic[]): void {
    this.#pulled.set(uri, diagnostics);
  }

  /**
   * Waits until the server published diagnostics for the document after publication `after`
   * and then stayed quiet for `quietMs`, or `capMs` passed, or `stop` tells to; returns the
   * latest diagnostics and whether they settled.
   */
  async settle(
    uri: string,
    after: number,
    stop: () => boolean,
    quietMs = DIAGNOSTICS_QUIET_MS,
    capMs = DIAGNOSTICS_CAP_MS,
  ): Promise<{ diagnostics: readonly LspDiagnostic[]; settled: boolean }> {
    const deadline = performance.now() + capMs;
    for (;;) {
      const p = this.#published.get(uri);
      const now = performance.now();
      const fresh = p !== undefined && this.current(uri, after);
      if (fresh && now - p.at >= quietMs) return { diagnostics: p.diagnostics, settled: true };
      const disk = !fresh && p !== undefined && p.count > after && this.#ofOtherText(uri, p);
      if (disk && now - p.at >= DISK_GRACE_MS) return { diagnostics: p.diagnostics, settled: true };
      if (now >= deadline || stop()) return { diagnostics: p?.diagnostics ?? [], settled: false };
      const wait = fresh ? quietMs - (now - p.at) : disk ? DISK_GRACE_MS - (now - p.at) : deadline - now;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(wait, deadline - now)));
        this.#waiters.add(done);
      });
    }
  }

  /** Ends the waits' current sleep (a publication came, or the server exited). */
  wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** An unversioned publication of the file on disk, of a document sent with other text. */
  #ofOtherText(uri: string, p: Published): boolean {
    return p.version === undefined && this.#versioned && this.#notOnDisk.has(uri);
  }
}
