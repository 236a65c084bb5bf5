/**
 * Warming on read: when the model reads a file a language server serves, that server starts and
 * opens the file in the background, so that the project is loaded and the file's diagnostics
 * (the baseline of the next write) are known by the time the model writes it. Without it, the
 * first write of a file in a large TypeScript project waits seconds for the project to load.
 * The read's result never waits for the server, and a server failure never reaches the read.
 * A write of a file still being warmed waits for the warm first (see `diagnostics-on-write.ts`),
 * so the baseline is always of the text before the write.
 */
import type { ToolContext, ToolMiddleware, ToolResult } from '@a3s-code/core';
import { hiddenRuleOf } from './hidden-files.js';
import { LSP_RESOURCE, type LspResource } from './lsp-resource.js';
import { callHoldOf } from './server-hold.js';
import { settleAfterSync, type SyncedFile } from './session-files.js';
import type { LspSupervisor } from './supervisor.js';
import { oldText } from './write-baseline.js';

/** Files of one `read` call warmed at most (a batch may name 32). */
const MAX_WARMED = 4;
/** How long a warm may take: a project load plus the file's diagnostics. */
const WARM_CAP_MS = 20_000;

const warming = new WeakMap<LspResource, Map<string, Promise<void>>>();

function pendingOf(lsp: LspResource): Map<string, Promise<void>> {
  let m = warming.get(lsp);
  if (m === undefined) {
    m = new Map();
    warming.set(lsp, m);
  }
  return m;
}

/** Resolves once the warm of `abs` (if one is under way) has ended; never rejects. */
export async function warmedFile(lsp: LspResource, abs: string): Promise<void> {
  await warming.get(lsp)?.get(abs);
}

/** The paths a `read` call named: `file_path`, or the first entries of `files`. */
function readPaths(args: unknown): string[] {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (typeof a.file_path === 'string') return [a.file_path];
  if (!Array.isArray(a.files)) return [];
  const paths = a.files.map((f: unknown) => (f as { path?: unknown } | null)?.path);
  return [...new Set(paths.filter((p): p is string => typeof p === 'string'))].slice(0, MAX_WARMED);
}

/** Opens `abs` in its server with its current text and waits for its diagnostics. */
async function warm(sup: LspSupervisor, abs: string): Promise<void> {
  const { client, spec, root, kept } = await sup.clientFor(abs);
  if (client.isOpen(abs)) return;
  const text = await oldText(abs);
  if (typeof text !== 'string' || client.isOpen(abs)) return;
  const before = client.publications(abs);
  const sent = client.sync(abs, spec.languageId(abs), text);
  const f: SyncedFile = { abs, path: sup.display(abs), text, client, spec, root, sent, kept };
  await settleAfterSync(f, before, AbortSignal.timeout(WARM_CAP_MS), WARM_CAP_MS);
}

async function startWarms(result: ToolResult, args: unknown, ctx: ToolContext): Promise<void> {
  if (result.exitCode !== 0) return;
  const paths = readPaths(args);
  if (paths.length === 0) return;
  let lsp: LspResource;
  try {
    lsp = await ctx.resource<LspResource>(LSP_RESOURCE);
  } catch {
    return;
  }
  const base = lsp.supervisor(ctx.workspace.root);
  if ('unavailable' in base) return;
  const sup = base.forCall(callHoldOf(ctx));
  const hidden = hiddenRuleOf(ctx, sup);
  const pending = pendingOf(lsp);
  for (const path of paths) {
    const abs = sup.tryAbsolute(path);
    if (abs === undefined || pending.has(abs) || !sup.availability(abs).ok || sup.isOpen(abs)) continue;
    if ((await hidden(abs)) !== undefined) continue;
    const done = warm(sup, abs)
      .catch(() => undefined)
      .finally(() => pending.delete(abs));
    pending.set(abs, done);
  }
}

/** The middleware of the lsp pack that warms the server of each file the model reads. */
export const warmOnRead: ToolMiddleware = {
  name: 'lsp-warm-on-read',
  tools: ['read'],
  requires: [LSP_RESOURCE],
  wrap: async (call, next) => {
    const result = await next(call.args);
    try {
      await startWarms(result, call.args, call.ctx);
    } catch {
      // Warming is an optimisation: it never fails the read.
    }
    return result;
  },
};
