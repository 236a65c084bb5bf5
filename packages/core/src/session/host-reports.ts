/**
 * Where a session reports what goes wrong outside a tool call: a resource that fails to open
 * later and a catalog refresh that fails go to the host's listeners; a fact log the store had to
 * write back (something else changed it, see `log-guard.ts`) goes to the run in progress, else to
 * the host's listeners.
 */
import type { A3sError } from '@a3s-code/effect';
import type { SessionCapabilityCatalog } from '../catalog/index.js';
import type { AgentEventEmitter } from '../events/event-emitter.js';
import type { SessionResources } from '../registry/session-resources.js';
import type { FactStore } from '../store/fact-store.js';
import { describeRestore } from '../store/log-guard.js';

/** The parts whose failures are reported besides the store. */
export interface ReportedParts {
  readonly catalog: SessionCapabilityCatalog;
  readonly sessionResources?: SessionResources | undefined;
}

/** Subscribes the session's reports: `host` is the host's emitter, `live` the run in progress's, if any. */
export function reportToHost(
  store: FactStore,
  parts: ReportedParts,
  host: AgentEventEmitter,
  live: () => AgentEventEmitter | undefined,
): void {
  const hostError = (e: A3sError) => host.emit({ kind: 'error', payload: { code: e.code, message: e.message } });
  parts.sessionResources?.onFailure(hostError);
  parts.catalog.onRefreshError(hostError);
  store.onRestore?.((r) =>
    (live() ?? host).emit({ kind: 'error', payload: { code: 'FACT_LOG_RESTORED', message: describeRestore(r) } }),
  );
}
