/**
 * Output sanitisation: every tool output (and every streamed delta) passes through the session's
 * `SecurityProvider` before any event or result carries it. The default provider redacts the
 * values of configured secret environment variables and strips terminal control sequences.
 */

/** What the provider knows about the output it sanitises. */
export interface SanitizeContext {
  readonly toolName: string;
  readonly callId: string;
}

/** A pluggable output sanitiser. Must be pure and fast; it runs on every output. */
export interface SecurityProvider {
  sanitizeOutput(output: string, context: SanitizeContext): string;
}

/** Environment variables redacted by default. */
export const DEFAULT_SECRET_ENV_VARS: readonly string[] = Object.freeze([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'DEEPSEEK_API_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'NPM_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
]);

/** Options of {@link createDefaultSecurityProvider}. */
export interface DefaultSecurityProviderOptions {
  /** Names whose values are redacted. Default {@link DEFAULT_SECRET_ENV_VARS}. */
  readonly secretEnvVars?: readonly string[];
  /** Where values are read, once, at construction. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Values shorter than this (characters) are not redacted, to avoid shredding output. Default 6. */
  readonly minSecretLength?: number;
}

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), DCS/SOS/PM/APC strings, other two-byte
// ESC sequences, the 8-bit CSI, then remaining C0/C1 controls except tab, newline and CR.
const CONTROL_RE =
  // eslint-disable-next-line no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
// Any byte that may start what CONTROL_RE removes (a cheap test before the replace).
// eslint-disable-next-line no-control-regex
const ANY_CONTROL_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
// A lone CR lets later text overwrite what a terminal showed; make it a newline.
const LONE_CR_RE = /\r(?!\n)/g;

/** Removes terminal control sequences; keeps `\t`, `\n` and `\r\n`. */
export function stripTerminalControls(text: string): string {
  return text.replace(CONTROL_RE, '').replace(LONE_CR_RE, '\n');
}

/** The default provider. Secrets are matched literally, longest first. */
export function createDefaultSecurityProvider(options: DefaultSecurityProviderOptions = {}): SecurityProvider {
  const env = options.env ?? process.env;
  const min = options.minSecretLength ?? 6;
  const secrets: { value: string; name: string }[] = [];
  for (const name of options.secretEnvVars ?? DEFAULT_SECRET_ENV_VARS) {
    const value = env[name];
    if (typeof value === 'string' && value.length >= min) secrets.push({ value, name });
  }
  secrets.sort((a, b) => b.value.length - a.value.length);
  return Object.freeze({
    sanitizeOutput(output: string): string {
      let out = output;
      for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(`[REDACTED:${s.name}]`);
      return ANY_CONTROL_RE.test(out) ? stripTerminalControls(out) : out;
    },
  });
}
