/** Every integer from `start` to `end`, both included: `range(1, 3)` is `[1, 2, 3]`. */
export function range(start, end) {
  const out = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
}
