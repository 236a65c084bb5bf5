/** The options the agent's configuration and each session's options share (see `agent.ts`). */
import type { WebToolsOptions } from '@a3s-code/tools-web';
import type { ModelSpec } from './model.js';
import type { VibeOptions } from './vibe.js';

/** Options shared by the agent's configuration and each session's options. */
export interface ModelOptions {
  /**
   * The model: an `LlmClient`, `'provider/model'` (`'openai/gpt-4o'`, `'anthropic/claude-sonnet-4-20250514'`,
   * key from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`, or `providers.<p>` settings), or
   * `'scripted:<file.json>'` (offline). Default: the workspace config file's, then `A3S_MODEL`.
   */
  readonly model?: ModelSpec;
}

/** The `web` setting, shared by the agent's configuration and each session's options. */
export interface WebOption {
  /**
   * The web tools `web_fetch` and `web_search`: on by default; `false` leaves them out;
   * an object configures them (`allowPrivateNetwork`, `fetch`, `search` engines and keys).
   */
  readonly web?: boolean | WebToolsOptions;
}

/** The `vibe` setting, shared by the agent's configuration and each session's options. */
export interface VibeOption {
  /**
   * Vibe mode: the `vibe_*` tools, with which the agent conducts background workers (each a run
   * on its own fact-log thread under the session's permissions). `true` turns it on with the
   * session's model on both tiers; an object sets `enabled`, the `tiers` models (`fast`, `good`)
   * and `maxWorkers`. The workspace config file's `vibe` is the base: the agent's, then the
   * session's setting win key by key and tier by tier (`false` turns vibe mode off). Default: off
   * (no roster attached).
   */
  readonly vibe?: boolean | VibeOptions;
}
