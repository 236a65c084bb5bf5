/** Terminal colours, only when writing to a TTY that can show them (and `NO_COLOR` is unset). */

/** A set of text styles; identity functions when colour is off. */
export interface Style {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

/**
 * Styles for a stream: coloured on a TTY, unless `NO_COLOR` is set or `TERM` is `dumb` (a
 * terminal that shows escape codes as text).
 */
export function styleFor(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): Style {
  const on = stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
  const wrap = (code: string) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap('1'), dim: wrap('2'), red: wrap('31'), green: wrap('32'), yellow: wrap('33'), cyan: wrap('36') };
}
