/**
 * Output sanitisation: every tool output (and every streamed delta) passes through the session's
 * `SecurityProvider` before any event or result carries it. The default provider redacts the
 * values of configured secret environment variables and strips terminal control sequences.
 */
import { stripTerminalControls } from './terminal-controls.js';
import { heldCredentials, withheldEnvNames } from './tool-process-env.js';

/** What the provider knows about the output it sanitises. */
export interface SanitizeContext {
  readonly toolName: string;
  readonly callId: string;
}

/** A pluggable output sanitiser. Must be pure and fast; it runs on every output. */
export interface SecurityProvider {
  sanitizeOutput(output: string, context: SanitizeContext): string;
  /**
   * The result's metadata (plain JSON) with what must not be shown removed, or the same object
   * when nothing changes. Events and the fact log carry metadata, and a tool may put there what it
   * read (a hover's text, a value). Optional: without it, metadata is passed on as it is.
   */
  sanitizeMetadata?(metadata: Record<string, unknown>, context: SanitizeContext): Record<string, unknown>;
}

/** Environment variables redacted by default. */
export const DEFAULT_SECRET_ENV_VARS: readonly string[] = Object.freeze([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'DEEPSEEK_API_KEY',
  'OPENROUTER_API_KEY',
  'GROQ_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'NPM_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
]);

/** Options of {@link createDefaultSecurityProvider}. */
export interface DefaultSecurityProviderOptions {
  /**
   * Names whose values are redacted. Default {@link DEFAULT_SECRET_ENV_VARS}, the variables a
   * configuration named as holding a model key (`providers.<p>.apiKeyEnv`), and (only by default)
   * the keys provider clients were given in code (`holdCredentials`).
   */
  readonly secretEnvVars?: readonly string[];
  /** Where values are read, once, at construction. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Values shorter than this (characters) are not redacted, to avoid shredding output. Default 6. */
  readonly minSecretLength?: number;
}

/** The default provider. Secrets are matched literally, longest first. */
export function createDefaultSecurityProvider(options: DefaultSecurityProviderOptions = {}): SecurityProvider {
  const env = options.env ?? process.env;
  const min = options.minSecretLength ?? 6;
  const secrets: { value: string; name: string }[] = [];
  for (const name of options.secretEnvVars ?? [...DEFAULT_SECRET_ENV_VARS, ...withheldEnvNames()]) {
    const value = env[name];
    if (typeof value === 'string' && value.length >= min) secrets.push({ value, name });
  }
  // A key a provider client was given in code: named by a variable holding it, if one does.
  if (options.secretEnvVars === undefined)
    for (const value of heldCredentials())
      if (value.length >= min && !secrets.some((s) => s.value === value))
        secrets.push({ value, name: Object.keys(env).find((n) => env[n] === value) ?? 'MODEL_CREDENTIAL' });
  secrets.sort((a, b) => b.value.length - a.value.length);
  const redact = (text: string): string => {
    let out = text;
    for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(`[REDACTED:${s.name}]`);
    return out;
  };
  return Object.freeze({
    sanitizeOutput(output: string): string {
      return stripTerminalControls(redact(output));
    },
    sanitizeMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
      return secrets.length === 0 ? metadata : (redactStrings(metadata, redact, 0) as Record<string, unknown>);
    },
  });
}

/** Nesting past which metadata is left as it is (the tools' metadata is shallow). */
const MAX_METADATA_DEPTH = 64;

/**
 * `value` (plain JSON) with `redact` applied to every string in it, copying only the arrays and
 * objects on the way to a changed string; the same value when nothing changes.
 */
function redactStrings(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_METADATA_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = redactStrings(value[i], redact, depth + 1);
      if (item === value[i]) continue;
      copy ??= value.slice();
      copy[i] = item;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = redactStrings(record[key], redact, depth + 1);
    if (item === record[key]) continue;
    copy ??= { ...record };
    copy[key] = item;
  }
  return copy ?? value;
}
