/** Tools that change while a session lives (MCP servers): attached to its registry. */
import type { ToolSourceTarget } from './source-target.js';

/** A source of tools kept in step with a session's registry. */
export interface ToolSource {
  /** Who provides the source, as the session's `resources()` names it (default `tool source`). */
  readonly name?: string;
  /**
   * Starts keeping `target` (the session's registry, and the state of the capabilities the source
   * drives) in step with the source; returns the detacher (called on close).
   */
  attach(target: ToolSourceTarget): () => void;
}
