/**
 * Errors of pack resources: a resource that failed to open, and a capability a tool asked for
 * that is not available to it.
 */
import { A3sError } from '@a3s-code/effect';

/** A pack's resource failed to open; its capability was withdrawn and the tools requiring it left the surface. */
export class ResourceOpenError extends A3sError {
  /** The capability the resource provides (`resource.lsp`). */
  readonly capability: string;
  /** The pack that provides it. */
  readonly pack: string;
  /** Why it failed (the message of what `open` threw). */
  readonly reason: string;
  constructor(capability: string, pack: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('RESOURCE_OPEN_FAILED', `resource '${capability}' of pack '${pack}' failed to open: ${reason}`, {
      details: { capability, pack, reason },
      cause,
    });
    this.capability = capability;
    this.pack = pack;
    this.reason = reason;
  }
}

/** A tool asked for a resource that it does not require, that no pack attached, or that was closed. */
export class ResourceUnavailableError extends A3sError {
  /** The capability asked for. */
  readonly capability: string;
  constructor(capability: string, why: string) {
    super('RESOURCE_UNAVAILABLE', `resource '${capability}' is not available: ${why}`, {
      details: { capability, why },
    });
    this.capability = capability;
  }
}
