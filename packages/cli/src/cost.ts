/**
 * What runs cost, from the prices a config file gives per `provider/model` (`pricing`). A run
 * summary prices the session's model; a replay prices each model turn by the model its run
 * recorded (`run.started`'s `model`). Without a price nothing is shown: costs are never guessed.
 */
import { existsSync } from 'node:fs';
import { costOf, findConfigFile, loadCodeConfig, priceOf, type ModelPricing } from '@a3s-code/core';
import type { Fact } from '@a3s-code/effect';
import type { RunResult, Session } from '@a3s-code/sdk';

/** The cost of a run of `session`, or `undefined` when its model has no price. */
export function runCost(session: Session, result: Pick<RunResult, 'usage'>): number | undefined {
  const { model, pricing } = session.core.config;
  const price = priceOf(pricing, `${model.provider}/${model.model}`);
  return price === undefined ? undefined : costOf(result.usage, price);
}

/** The `pricing` of a workspace's config file (empty without a file). */
export async function workspacePricing(workspace: string): Promise<ModelPricing> {
  if (!existsSync(workspace)) return {};
  const file = await findConfigFile(workspace);
  return file === undefined ? {} : ((await loadCodeConfig(file)).pricing ?? {});
}

/** The priced tokens of a log. */
export interface LogCost {
  /** Summed over every model turn, or `null` when some turn's model has no price (or is unknown). */
  readonly total: number | null;
  /** Cost per `provider/model` that has a price. */
  readonly by_model: Readonly<Record<string, number>>;
  /** Models the log used that have no price. */
  readonly unpriced: readonly string[];
}

/** Prices the `model.turn` usage of a log, each by the model of the run it belongs to. */
export function logCost(facts: readonly Fact[], pricing: ModelPricing): LogCost {
  const byModel: Record<string, number> = {};
  const unpriced = new Set<string>();
  let model = 'unknown';
  for (const fact of facts) {
    const p = fact.payload as {
      model?: unknown;
      usage?: { input_tokens?: unknown; output_tokens?: unknown };
      history?: unknown;
    };
    if (fact.type === 'run.started') model = typeof p.model === 'string' ? p.model : 'unknown';
    if (fact.type !== 'model.turn' || p.history === true) continue;
    const usage = {
      inputTokens: Number(p.usage?.input_tokens ?? 0),
      outputTokens: Number(p.usage?.output_tokens ?? 0),
    };
    if (usage.inputTokens === 0 && usage.outputTokens === 0) continue;
    const price = priceOf(pricing, model);
    if (price === undefined) unpriced.add(model);
    else byModel[model] = (byModel[model] ?? 0) + costOf(usage, price);
  }
  const total = unpriced.size > 0 ? null : Object.values(byModel).reduce((a, b) => a + b, 0);
  return { total, by_model: byModel, unpriced: [...unpriced] };
}
