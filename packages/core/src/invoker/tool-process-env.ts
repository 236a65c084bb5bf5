/**
 * The environment of the processes tools start for the model (shell commands, kernels, debuggees):
 * the host's, without the credentials of model providers. The agent's own API key is never
 * something a command needs, and a prompt-injected model would otherwise read it with `env` or
 * send it away encoded, where output redaction cannot see it.
 */

/** Variables holding model-provider credentials, left out of tool processes by default. */
export const MODEL_CREDENTIAL_ENV_VARS: readonly string[] = Object.freeze([
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'DEEPSEEK_API_KEY',
  'OPENROUTER_API_KEY',
  'GROQ_API_KEY',
]);

// Variables a configuration named as holding a model key (`providers.<p>.apiKeyEnv`).
const named = new Set<string>();

/**
 * Marks `names`, variables holding model-provider credentials under names of the host's choosing
 * (a configuration's `providers.<p>.apiKeyEnv`), so tool processes started from now on in this
 * process go without them, as without {@link MODEL_CREDENTIAL_ENV_VARS}, and the default
 * security provider redacts their values. Sessions call it for the variables their
 * configuration names.
 */
export function withholdFromToolProcesses(...names: readonly string[]): void {
  for (const name of names) named.add(name);
}

// Values of model credentials this process holds (a key passed to a provider client in code).
const held = new Set<string>();

/** Shorter values are not marked by {@link holdCredentials}: they would match ordinary text. */
const MIN_HELD_CHARS = 8;

/**
 * Marks `values` as model-provider credentials this process holds (a key a host passed to a
 * provider client in code, a credential header): from now on a variable of the
 * environment holding one of them, under whatever name, is left out of tool processes, and the
 * default security provider redacts them from tool output. Values shorter than 8 characters, and
 * `undefined`, are ignored. Provider clients call it with what they are given.
 */
export function holdCredentials(...values: readonly (string | undefined)[]): void {
  for (const v of values) if (typeof v === 'string' && v.length >= MIN_HELD_CHARS) held.add(v);
}

/** The values passed to {@link holdCredentials} and not released since. */
export function heldCredentials(): readonly string[] {
  return [...held];
}

/**
 * Forgets `values` passed to {@link holdCredentials} (all of them when none are given): for a host
 * that has let go of every client holding them, and for tests that must leave no state behind.
 */
export function releaseCredentials(...values: readonly string[]): void {
  if (values.length === 0) held.clear();
  for (const v of values) held.delete(v);
}

/**
 * True while this process holds a credential passed to {@link holdCredentials} that is not also
 * the value of a variable of `env` named in `pass` (which the host hands to tool processes anyway).
 */
export function holdsCredentials(
  pass: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  for (const v of held) if (!pass.some((name) => env[name] === v)) return true;
  return false;
}

/** The variables passed to {@link withholdFromToolProcesses} so far. */
export function withheldEnvNames(): readonly string[] {
  return [...named];
}

/**
 * `env` (default `process.env`) without {@link MODEL_CREDENTIAL_ENV_VARS}, the variables
 * passed to {@link withholdFromToolProcesses} and those holding a value passed to
 * {@link holdCredentials}, except the names in
 * `pass` (a host whose own tests need a key lists it). Names are matched exactly, as the
 * operating system does.
 */
export function toolProcessEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  pass: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if ((MODEL_CREDENTIAL_ENV_VARS.includes(name) || named.has(name) || held.has(value)) && !pass.includes(name))
      continue;
    out[name] = value;
  }
  return out;
}
