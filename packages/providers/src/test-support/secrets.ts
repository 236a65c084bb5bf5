/**
 * Test support: credentials shaped so that a leak is unmistakable, and a check that finds the
 * whole value or any head or tail of it (at least four characters) in a text.
 */

/** An API key whose 4-character pieces occur nowhere else in a test's output. */
export const LEAK_KEY = 'Zq7Kv9fLmPxR4tWy8BnC3dHsJgE1uQoV';

/** A gateway token sent as `X-Auth-Token`. */
export const LEAK_TOKEN = 'Gw7TkNq2Xv5RzL8pHc4M';

/** A session cookie value sent in `Cookie`. */
export const LEAK_COOKIE = 'Qw8Er7Ty6Ui5Op4A';

/** A key carried in the base URL's query. */
export const LEAK_QUERY = 'Vb3Nm9Kj2Hg7Fd5Sa1Lp';

/** The pieces of `secret` found in `text`: the whole value or a head or tail of at least `min` characters. */
export function leakedPieces(text: string, secret: string, min = 4): string[] {
  const out: string[] = [];
  for (let k = min; k <= secret.length; k++) {
    const head = secret.slice(0, k);
    const tail = secret.slice(secret.length - k);
    if (text.includes(head)) out.push(head);
    if (k < secret.length && text.includes(tail)) out.push(tail);
  }
  return out;
}

/** `leakedPieces` over several secrets at once, keyed by the secret's first characters. */
export function leaks(text: string, secrets: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of secrets) {
    const found = leakedPieces(text, s);
    if (found.length > 0) out[`${s.slice(0, 2)}…`] = found;
  }
  return out;
}

/** A body text of `length` characters with `secret` starting at `at` (filler characters share nothing with it). */
export function bodyWithSecretAt(secret: string, at: number, length: number): string {
  return `${'.'.repeat(at)}${secret}${'-'.repeat(Math.max(0, length - at - secret.length))}`;
}
