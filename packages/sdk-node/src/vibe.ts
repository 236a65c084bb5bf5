/**
 * Vibe mode in SDK sessions: the `vibe` option plugs in the vibe pack (`vibe_spawn`, `vibe_send`,
 * `vibe_wait`, `vibe_kill`, `vibe_list`) with its mode switch, and resolves the model of each tier
 * like the session's model (`'provider/model'`, `'scripted:<file>'` or an `LlmClient`).
 */
import {
  A3sError,
  ModelConfigurationError,
  ScriptError,
  SessionConfigurationError,
  type LlmClient,
  type ModelEnvironment,
} from '@a3s-code/core';
import { createVibe, VIBE_MAX_WORKERS, type Vibe } from '@a3s-code/tools-resource/vibe';
import { resolveModel, type ModelSpec, type ProvidersConfig } from './model.js';

/** The `vibe` option: `true` turns vibe mode on with the session's model on both tiers. */
export interface VibeOptions {
  /** Vibe mode at the start (default `true`); `session.setVibeMode(on)` turns it on and off later. */
  readonly enabled?: boolean;
  /**
   * The model of each tier, specified like `model`: `fast` for well-specified mechanical work,
   * `good` for design, judgement and review. A tier without one uses the session's model.
   */
  readonly tiers?: { readonly fast?: ModelSpec; readonly good?: ModelSpec };
  /** Workers running at once, `1..32` (default 8). */
  readonly maxWorkers?: number;
}

/** What resolves a tier's model spec. */
interface ModelContext {
  readonly env: ModelEnvironment;
  readonly cwd: string;
  readonly providers: ProvidersConfig | undefined;
  readonly resolver: Parameters<typeof resolveModel>[4];
}

/**
 * A host's `vibe` setting, checked (no model is resolved yet).
 * @throws SessionConfigurationError naming `vibe.<key>` for a bad setting.
 */
export function checkedVibe(setting: unknown): boolean | VibeOptions | undefined {
  if (setting === undefined || typeof setting === 'boolean') return setting;
  if (typeof setting !== 'object' || setting === null || Array.isArray(setting))
    throw new SessionConfigurationError(
      'vibe',
      'must be true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? }',
    );
  const { enabled, tiers, maxWorkers, ...unknown } = setting as VibeOptions & Record<string, unknown>;
  const extra = Object.keys(unknown)[0];
  if (extra !== undefined)
    throw new SessionConfigurationError(`vibe.${extra}`, 'is not a vibe setting; use enabled, tiers or maxWorkers');
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw new SessionConfigurationError('vibe.enabled', 'must be true or false');
  if (
    maxWorkers !== undefined &&
    !(Number.isInteger(maxWorkers) && maxWorkers >= VIBE_MAX_WORKERS.min && maxWorkers <= VIBE_MAX_WORKERS.max)
  )
    throw new SessionConfigurationError(
      'vibe.maxWorkers',
      `must be an integer from ${VIBE_MAX_WORKERS.min} to ${VIBE_MAX_WORKERS.max}`,
    );
  if (tiers !== undefined) {
    if (typeof tiers !== 'object' || tiers === null || Array.isArray(tiers))
      throw new SessionConfigurationError('vibe.tiers', 'must be { fast?: model, good?: model }');
    for (const [tier, spec] of Object.entries(tiers)) {
      if (tier !== 'fast' && tier !== 'good')
        throw new SessionConfigurationError(`vibe.tiers.${tier}`, 'is not a tier; the tiers are fast and good');
      if (spec !== undefined && typeof spec !== 'string' && (typeof spec !== 'object' || spec === null))
        throw new SessionConfigurationError(
          `vibe.tiers.${tier}`,
          "must be a model: 'provider/model', 'scripted:<file.json>' or an LlmClient",
        );
    }
  }
  return setting as VibeOptions;
}

/**
 * The vibe pack and switch of one session, or `undefined` when the setting is absent or `false`.
 * The tier models are resolved now when vibe mode starts on; when it starts off (`enabled: false`),
 * only when the roster opens (the first `vibe_*` call, once vibe mode is turned on), so settings
 * kept ready for later never stop a session that does not use them.
 * @throws SessionConfigurationError naming `vibe.<key>` for a bad setting; for a tier model that
 *   cannot be used (no key, a missing script), the model's error with the message naming the tier
 *   (`vibe.tiers.fast`), the model and the reason (thrown by the first `vibe_*` call instead, as
 *   the cause of its `RESOURCE_OPEN_FAILED`, when vibe mode starts off).
 */
export async function sessionVibe(setting: unknown, models: ModelContext): Promise<Vibe | undefined> {
  const checked = checkedVibe(setting);
  if (checked === undefined || checked === false) return undefined;
  if (checked === true) return createVibe();
  const { enabled, tiers, maxWorkers } = checked;
  const resolve = () => tierModels(tiers, models);
  return createVibe({
    ...(enabled === undefined ? {} : { enabled }),
    ...(maxWorkers === undefined ? {} : { maxWorkers }),
    tiers: enabled === false ? resolve : await resolve(),
  });
}

/** The client of each tier that names a model. @throws the tier's error (see {@link tierError}). */
async function tierModels(
  tiers: VibeOptions['tiers'],
  models: ModelContext,
): Promise<{ fast?: LlmClient; good?: LlmClient }> {
  const resolved: { fast?: LlmClient; good?: LlmClient } = {};
  for (const tier of ['fast', 'good'] as const) {
    const spec = tiers?.[tier];
    if (spec === undefined) continue;
    let client: LlmClient | undefined;
    try {
      client = await resolveModel(spec, models.env, models.cwd, models.providers, models.resolver);
    } catch (e) {
      throw tierError(tier, spec, e);
    }
    if (client !== undefined) resolved[tier] = client;
  }
  return resolved;
}

/**
 * The error of a tier model that cannot be used, naming the tier: the same kind of error (and
 * code) as the model's, with `vibe.tiers.<tier>`, the model and the reason in the message.
 */
function tierError(tier: 'fast' | 'good', spec: ModelSpec, e: unknown): unknown {
  if (!A3sError.isInstance(e)) return e;
  const field = `vibe.tiers.${tier}`;
  const what = `cannot use the ${tier} tier's model ${typeof spec === 'string' ? `'${spec}'` : `${spec.provider}/${spec.model}`}`;
  const reason = e.message.replace(/^(model|session) configuration: /, '');
  if (e instanceof ModelConfigurationError) return new ModelConfigurationError(field, `${what}: ${reason}`);
  if (e instanceof SessionConfigurationError) return new SessionConfigurationError(field, `${what}: ${reason}`);
  if (e instanceof ScriptError)
    return new ScriptError(e.code as 'INVALID_SCRIPT', `${field}: ${what}: ${reason}`, { ...e.details, field });
  return e;
}
