/**
 * "Did you mean …?" for a mistyped option key: the allowed key it is a respelling of
 * (`session_id`, `SessionID` → `sessionId`), else the nearest by edit distance (`sesionId`,
 * `goverance`), if one is near enough to be meant.
 */

/** The key without case, `_` and `-`: `max_tool_rounds` and `MaxToolRounds` both read `maxtoolrounds`. */
const plain = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/** Edit distance of two short words (insertions, deletions, substitutions, swaps of neighbours), or `limit + 1` once over `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row.push(best);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The allowed key `key` was probably meant to be, or `undefined`: a respelling of one (case, `_`,
 * `-`), else the nearest within two edits (one for keys of four letters or fewer).
 */
export function suggestKey(key: string, allowed: readonly string[]): string | undefined {
  if (key.length > 64) return undefined;
  const wanted = plain(key);
  const respelt = allowed.find((k) => k !== key && plain(k) === wanted);
  if (respelt !== undefined) return respelt;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of allowed) {
    const limit = Math.min(k.length > 4 ? 2 : 1, bestDistance - 1);
    if (limit < 0) break;
    const d = distance(wanted, plain(k), limit);
    if (d <= limit && d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** Other agent SDKs' names of options (as {@link plain} reads them), and what each is here. */
const PEER_NAMES: Readonly<Record<string, string>> = {
  systemprompt: 'system',
  customsystemprompt: 'system',
  appendsystemprompt: 'system',
  instructions: 'system',
  maxturns: 'maxToolRounds',
  allowedtools: 'permissions',
  disallowedtools: 'permissions',
  permissionmode: 'permissions',
};

/** `; did you mean 'x'?` for `key` among `allowed` (the end of a message), or `''`. */
export function didYouMean(key: string, allowed: readonly string[]): string {
  const peer = PEER_NAMES[plain(key)];
  if (peer !== undefined && allowed.includes(peer))
    return `; did you mean '${peer}'? ('${key}' is another agent SDK's name for what '${peer}' sets here)`;
  const near = suggestKey(key, allowed);
  return near === undefined ? '' : `; did you mean '${near}'?`;
}
