/**
 * The lsp pack's resource: the session's {@link LspSupervisor} (no server runs until a file needs
 * one) and the per-run diagnostics ledger. Opening it is cheap: it loads no JSON-RPC code.
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { OpenedResource, ToolResource } from '@a3s-code/core';
import { DiagnosticsLedger } from './ledger.js';
import type { ServerSpec } from './servers.js';
import { LspSupervisor } from './supervisor.js';
import { WriteSnapshots } from './write-baseline.js';

/** The capability the lsp tools and the diagnostics-on-write middleware require. */
export const LSP_RESOURCE = 'resource.lsp';

/** The opened lsp resource a tool gets from `ctx.resource(LSP_RESOURCE)`. */
export interface LspResource extends OpenedResource {
  /** The supervisor for a workspace root on local disk, or the reason there is none. */
  supervisor(workspaceRoot: string): LspSupervisor | { readonly unavailable: string };
  /** The diagnostics already reported in a run. */
  readonly ledger: DiagnosticsLedger;
  /** Old texts a tool recorded for the files its call writes (the diagnostics baseline). */
  readonly snapshots: WriteSnapshots;
}

/** Options of {@link openLspResource}. */
export interface LspResourceOptions {
  /** The servers the supervisors may start (default: every server the pack knows, see `lspServers`). */
  readonly servers?: readonly ServerSpec[];
}

/** True when `root` is an absolute path naming a folder on this machine's disk (a working directory). */
function isLocalFolder(root: string | undefined): root is string {
  if (root === undefined || !isAbsolute(root)) return false;
  try {
    return statSync(root).isDirectory();
  } catch {
    return false;
  }
}

/** Opens the resource (starts no server). */
export function openLspResource(options: LspResourceOptions = {}): LspResource {
  const supervisors = new Map<string, LspSupervisor>();
  const ledger = new DiagnosticsLedger();
  return {
    ledger,
    snapshots: new WriteSnapshots(),
    supervisor(root) {
      // Asked on every read and write: a root already looked at is not looked at again.
      let s = supervisors.get(root);
      if (s !== undefined) return s;
      if (!isLocalFolder(root))
        return { unavailable: `the workspace root ${root} is not a folder on this machine's disk` };
      s = new LspSupervisor(root, options.servers);
      supervisors.set(root, s);
      return s;
    },
    close: async () => {
      const all = [...supervisors.values()];
      supervisors.clear();
      await Promise.all(all.map((s) => s.close()));
    },
  };
}

/**
 * The resource of the lsp pack. A session attaches it (and so registers `lsp`, `lsp_rename` and
 * the diagnostics on writes) only when its workspace root is a working directory on this
 * machine's disk: language servers run on that folder, so a workspace held elsewhere (in memory,
 * remote) gets no lsp tools rather than tools that can never answer.
 */
export const lspResource: ToolResource<LspResource> = {
  capability: LSP_RESOURCE,
  opens: 'lazy',
  enabled: (context) => isLocalFolder(context.workspaceRoot),
  open: async () => openLspResource(),
};
