import type { LoadLog } from './project-load.js';

/** How to start one server. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Sent as `initializationOptions`. */
  readonly initializationOptions?: Record<string, unknown>;
  /**
   * The answer to the server's `workspace/configuration` requests, by section (a server that
   * reads its settings that way gets these rather than its defaults); other sections get null.
   */
  readonly configuration?: Readonly<Record<string, unknown>>;
  /**
   * Variables set for the server on top of the tools' environment (the host's without the model's
   * credentials).
   */
  readonly env?: Readonly<Record<string, string>>;
  /** How the server's log tells that it has loaded its project, when only its log tells (see `project-load.ts`). */
  readonly loadLog?: LoadLog;
}
