/**
 * `ToolSet`: a read-only set of tools a caller can reach — a session's registry, or one immutable
 * generation of its capability catalog that a run pinned. Model surfaces and the kernel's lookups
 * read tools only through it.
 */
import type { Tool } from '../tools/tool.js';
import type { ToolDefinition } from './tool-registry.js';

/** A read-only set of tools. */
export interface ToolSet {
  /** Changes whenever the set does (an immutable set keeps one value). */
  readonly version: number;
  /** The tool named `name`, if it is in the set. */
  get(name: string): Tool | undefined;
  /** Tools in surface order. */
  tools(): readonly Tool[];
  /** Names in surface order. */
  toolNames(): readonly string[];
  /** Definitions in surface order. */
  toolDefinitions(): readonly ToolDefinition[];
}
