/**
 * Schemas that are small but exponential to validate, for the tests of the cost bound: a chain
 * of `anyOf`s of two `$ref`s each, and a recursion that applies itself twice to each child.
 */

/** `links` definitions under `at`, each an `anyOf` of two `$ref`s to the next: 2^links branches on a wrong `x`. */
export function chainSchema(links = 40, at = '$defs'): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < links; i++)
    defs[`l${i}`] = { anyOf: [{ $ref: `#/${at}/l${i + 1}` }, { $ref: `#/${at}/l${i + 1}` }] };
  defs[`l${links}`] = { type: 'string' };
  return { type: 'object', [at]: defs, properties: { x: { $ref: `#/${at}/l0` } }, required: ['x'] };
}

const twice = { type: 'object', properties: { c: { $ref: '#/$defs/n' } } };

/** A recursion whose `anyOf` applies it twice to the child `c`: 2^depth checks for `x` nested `depth` deep. */
export const doublingSchema: Record<string, unknown> = {
  type: 'object',
  $defs: { n: { anyOf: [twice, twice] } },
  properties: { x: { $ref: '#/$defs/n' } },
};
