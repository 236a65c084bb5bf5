/**
 * Prices per model, as a host configures them (`pricing` in `a3s.config.json`), and the cost of
 * token usage under them. Prices are per million tokens in whatever currency the host writes them
 * in (the CLI shows them as dollars); nothing here calls a provider or guesses a price.
 */

/** The price of one model, per million tokens. */
export interface ModelPrice {
  /** Price of one million input (prompt) tokens, `>= 0`. */
  readonly inputPerMTok: number;
  /** Price of one million output (completion) tokens, `>= 0`. */
  readonly outputPerMTok: number;
}

/** Prices keyed by `provider/model` (`openai/gpt-4o`, `anthropic/claude-sonnet-4-20250514`, `scripted/<model>`). */
export type ModelPricing = Readonly<Record<string, ModelPrice>>;

/** Token counts to price. */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The price of `provider/model` in `pricing`, or `undefined` when it has none. */
export function priceOf(pricing: ModelPricing | undefined, modelId: string): ModelPrice | undefined {
  if (pricing === undefined || !Object.hasOwn(pricing, modelId)) return undefined;
  return pricing[modelId];
}

/** The cost of `usage` at `price` (same currency as the price). */
export function costOf(usage: TokenCounts, price: ModelPrice): number {
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}

/** A cost for people: `$0.0123`, `$1.23`; two significant digits below a cent, never `$0.00` for a spend. */
export function formatCost(cost: number): string {
  if (cost === 0) return '$0';
  if (cost < 0.000_001) return '<$0.000001';
  if (cost < 0.01) return `$${Number(cost.toPrecision(2)).toFixed(8).replace(/0+$/, '')}`;
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}
