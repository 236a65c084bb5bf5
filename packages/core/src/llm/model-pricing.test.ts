import { describe, expect, it } from 'vitest';
import { costOf, formatCost, priceOf } from './model-pricing.js';

describe('model pricing', () => {
  const pricing = { 'openai/gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 } };

  it('prices usage per million tokens', () => {
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 100_000 }, pricing['openai/gpt-4o'])).toBeCloseTo(3.5);
    expect(costOf({ inputTokens: 0, outputTokens: 0 }, pricing['openai/gpt-4o'])).toBe(0);
  });

  it('finds a price only by its exact provider/model key (no inherited keys)', () => {
    expect(priceOf(pricing, 'openai/gpt-4o')).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10 });
    expect(priceOf(pricing, 'openai/gpt-4o-mini')).toBeUndefined();
    expect(priceOf(pricing, 'constructor')).toBeUndefined();
    expect(priceOf(undefined, 'openai/gpt-4o')).toBeUndefined();
  });

  it('formats a cost without rounding a spend to zero', () => {
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(0.00000001)).toBe('<$0.000001');
    expect(formatCost(0.0000123)).toBe('$0.000012');
    expect(formatCost(0.00125)).toBe('$0.0013');
    expect(formatCost(0.0123)).toBe('$0.0123');
    expect(formatCost(12.5)).toBe('$12.50');
  });
});
