/**
 * The vibe settings the CLI passes on to the SDK's `vibe` option: the model of each tier
 * (`--vibe-tier <tier>=<model>`, `a3s serve`'s `session/open` `vibe.tiers`), checked before a
 * session opens so a mistake names the flag or field and what is allowed.
 */
import { findConfigFile, loadCodeConfig, parseModelRef } from '@a3s-code/core';
import { UsageError } from './errors.js';

/** The vibe tiers: `fast` for well-specified mechanical work, `good` for design, judgement and review. */
export const VIBE_TIER_NAMES = Object.freeze(['fast', 'good'] as const);

/** A vibe tier. */
export type VibeTierName = (typeof VIBE_TIER_NAMES)[number];

/** The model of each tier that has one (the others use the session's model). */
export type VibeTierModels = Partial<Record<VibeTierName, string>>;

/** Workers running at once: the bounds the SDK's `vibe.maxWorkers` accepts. */
export const VIBE_WORKER_BOUNDS = Object.freeze({ min: 1, max: 32 });

const SCRIPTED = 'scripted:';

/** What is wrong with a tier's model spec (`provider/model` or `scripted:<file.json>`), or `undefined`. */
export function tierModelProblem(spec: string): string | undefined {
  if (spec.startsWith(SCRIPTED))
    return spec.slice(SCRIPTED.length).trim() === '' ? 'scripted: needs the script file' : undefined;
  try {
    parseModelRef(spec);
    return undefined;
  } catch (e) {
    // The message names the model string it was probably meant to be, when there is one.
    return (e as Error).message.replace(/^(model configuration: )?model: /, '');
  }
}

/** Whether `name` is a vibe tier. */
export function isVibeTier(name: string): name is VibeTierName {
  return (VIBE_TIER_NAMES as readonly string[]).includes(name);
}

/**
 * The tiers of `--vibe-tier <tier>=<model>` flags (repeatable; a later one for the same tier wins).
 * @throws UsageError naming the flag value, the allowed tiers and the model syntax.
 */
export function vibeTierFlags(values: readonly string[] | undefined): VibeTierModels | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const tiers: VibeTierModels = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    const tier = eq === -1 ? value : value.slice(0, eq).trim();
    const model = eq === -1 ? '' : value.slice(eq + 1).trim();
    if (!isVibeTier(tier))
      throw new UsageError(
        `--vibe-tier ${value}: '${tier}' is not a vibe tier; allowed: ${VIBE_TIER_NAMES.join(', ')} (e.g. --vibe-tier fast=openai/gpt-4o-mini)`,
      );
    if (model === '')
      throw new UsageError(`--vibe-tier ${value}: needs <tier>=<model>, e.g. --vibe-tier ${tier}=openai/gpt-4o-mini`);
    const problem = tierModelProblem(model);
    if (problem !== undefined)
      throw new UsageError(
        `--vibe-tier ${value}: ${problem}${problem.includes('allowed') ? '' : '; allowed: <provider>/<model> or scripted:<file.json>'}`,
      );
    tiers[tier] = model;
  }
  return tiers;
}

/** Whether vibe mode starts on, and what turned it on (`file`: the config file that did). */
export interface VibeStart {
  readonly on: boolean;
  /** The workspace config file whose `vibe` turned vibe mode on (not set with `--vibe`, or when off). */
  readonly file?: string;
}

/**
 * Whether vibe mode starts on: with `--vibe`; else as the workspace config file's `vibe` says:
 * `true`, or the object form unless it says `"enabled": false` (the object alone turns it on, as
 * everywhere a `vibe` object is accepted); else off.
 * @throws the config file's errors (SessionConfigurationError naming the key, file, line and column).
 */
export async function vibeStart(flags: {
  readonly vibe?: boolean;
  readonly cwd: string;
  readonly ignoreWorkspaceConfig?: boolean;
}): Promise<VibeStart> {
  if (flags.vibe === true) return { on: true };
  const file = flags.ignoreWorkspaceConfig === true ? undefined : await findConfigFile(flags.cwd);
  if (file === undefined) return { on: false };
  const { vibe } = await loadCodeConfig(file);
  const on = vibe === true || (typeof vibe === 'object' && vibe.enabled !== false);
  return on ? { on, file } : { on };
}

/**
 * The line a session command prints when the config file turned vibe mode on, so workers are
 * never enabled without a word: which file, and how to keep it off.
 */
export function vibeNote(start: VibeStart): string | undefined {
  if (start.file === undefined) return undefined;
  return `vibe mode on (from "vibe" in ${start.file}; "enabled": false keeps the settings with vibe mode off)`;
}
