/** Bringing a workspace file into a server: read it, open or update it, return its text. */
import { type LspClient, uriOf } from './client.js';
import { LspError } from './lsp-errors.js';
import type { LspDiagnostic } from './protocol.js';
import type { LspSupervisor } from './supervisor.js';
import { readRegularFile } from '../shared/regular-file.js';
import type { ServerSpec } from './servers.js';

/** A file synced into its server. */
export interface SyncedFile {
  readonly abs: string;
  readonly path: string;
  readonly text: string;
  readonly client: LspClient;
  readonly spec: ServerSpec;
  readonly root: string;
  /** Whether the sync sent anything (false: the server already had this text). */
  readonly sent: boolean;
  /**
   * False when the call's read rules hide files and the server could not be kept from them (see
   * `server-hold.ts`); absent: kept.
   */
  readonly kept?: boolean;
}

/**
 * `text` as a language server sees a file: without a leading byte-order mark (servers that read
 * files from disk drop it, so their positions count from the character after it).
 */
export function serverText(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Starts (if needed) the file's server and syncs the file's current text (without a BOM) into it. */
export async function syncFile(sup: LspSupervisor, file: string): Promise<SyncedFile> {
  const abs = sup.absolute(file);
  const path = sup.display(abs);
  let text: string;
  try {
    text = serverText((await readRegularFile(abs)).toString('utf8'));
  } catch (error) {
    throw new LspError('LSP_PATH', `cannot read ${path}: ${(error as Error).message}`, { path }, error);
  }
  const { client, spec, root, kept } = await sup.clientFor(abs);
  const sent = client.sync(abs, spec.languageId(abs), text);
  return { abs, path, text, client, spec, root, sent, kept };
}

/**
 * The file's diagnostics once settled after a sync that followed publication `before`: at once
 * when nothing was sent and the server already published for this text, else after the wait.
 */
export async function settleAfterSync(
  f: SyncedFile,
  before: number,
  signal: AbortSignal,
  capMs?: number,
): Promise<{ diagnostics: readonly LspDiagnostic[]; settled: boolean }> {
  if (f.spec.pull !== undefined) {
    try {
      const diagnostics = await f.spec.pull((m, p, s) => f.client.request(m, p, s), uriOf(f.abs), signal);
      f.client.remember(f.abs, diagnostics);
      return { diagnostics, settled: true };
    } catch {
      // fall back to the published diagnostics
    }
  }
  if (!f.sent && f.client.publications(f.abs) > 0 && !f.client.outdated(f.abs))
    return { diagnostics: f.client.diagnostics(f.abs), settled: true };
  return f.client.settle(f.abs, before, signal, undefined, capMs);
}
