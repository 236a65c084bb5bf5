/**
 * The model resolver: how a `provider/model` name becomes an `LlmClient`. Core holds only this
 * contract; the host injects an implementation (`CodeConfig.modelResolver`; the SDK passes
 * `@a3s-code/providers`' one), so the kernel never depends on a provider. A session built with
 * an `LlmClient` object and no sub-agent naming another model needs no resolver at all.
 */
import type { LlmCapabilities, LlmClient } from './llm-client.js';

/** Environment variables consulted (a plain record, e.g. `process.env`). */
export type ModelEnvironment = Readonly<Record<string, string | undefined>>;

/** Per-provider settings (keys are provider names: `openai`, `anthropic`, `ollama`, ...). */
export interface ProviderSettings {
  /**
   * Base URL of the API (absolute http(s), no `user:password@`); overrides the preset and its
   * environment variable. A query (`?api-version=...`) is kept; its values are treated as secrets.
   */
  readonly baseUrl?: string;
  /** Name of the environment variable holding the API key (never the key itself). */
  readonly apiKeyEnv?: string;
  /** Extra HTTP headers sent with every request; every value is redacted from error text. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The most tokens one answer may take when a request sets none, `1..1000000` (see {@link ModelSelection.maxOutputTokens}). */
  readonly maxOutputTokens?: number;
  /** Longest wait for a request's response headers, ms, `1..600000` (default 60,000); see {@link ModelSelection.connectTimeoutMs}. */
  readonly connectTimeoutMs?: number;
  /** Longest time a streaming answer may go without progress, ms, `1..600000` (default 120,000). */
  readonly idleTimeoutMs?: number;
}

/** What the host configured for one model; anything unset comes from the environment. */
export interface ModelSelection {
  /** `provider/model`, e.g. `openai/gpt-4o`; unset: the resolver's default (e.g. `A3S_MODEL`). */
  readonly model?: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The most tokens one answer may take when a request sets none (`max_tokens`; Anthropic's API
   * requires one and gets 4096 by default, OpenAI-compatible servers use their own default).
   */
  readonly maxOutputTokens?: number;
  /**
   * Longest wait for the response headers of a model request, ms, `1..600000` (default 60,000):
   * raise it for a local model that is slow to load.
   */
  readonly connectTimeoutMs?: number;
  /** Longest time an answer may go without progress while it streams, ms, `1..600000` (default 120,000). */
  readonly idleTimeoutMs?: number;
  /** Overrides of the provider's capabilities. */
  readonly capabilities?: Partial<LlmCapabilities>;
}

/** A resolved model, safe to log and serialise: it holds no key, only where the key came from. */
export interface ModelConfig {
  readonly provider: string;
  /** The wire protocol family, e.g. `openai-compatible` or `anthropic`. */
  readonly family: string;
  readonly model: string;
  /** The base URL; query values (which may carry a key) are shown as `[REDACTED]`. */
  readonly baseUrl: string;
  /** Where the key came from (`apiKey`, `OPENAI_API_KEY`, ...), or `undefined` when none is used. */
  readonly apiKeySource: string | undefined;
  readonly capabilities: LlmCapabilities;
}

/**
 * Turns selections into clients. Both methods return `undefined` when no model is configured
 * anywhere and throw `ModelConfigurationError` naming the key (never its value) otherwise.
 */
export interface ModelResolver {
  /** Resolves without I/O or client construction, so a bad setting fails before anything opens. */
  resolveConfig(selection: ModelSelection, env: ModelEnvironment): ModelConfig | undefined;
  /** Builds the client of a selection. */
  createClient(selection: ModelSelection, env: ModelEnvironment): LlmClient | undefined;
}
