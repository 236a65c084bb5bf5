/**
 * Reading a command's words as options and operands: what the judges of written paths share.
 */

/** True for an option word (`-x`, `--long`), not for `-` alone. */
export const isOption = (t: string): boolean => t.length > 1 && t.startsWith('-');

/** The words of `args` that are not options (all of them after `--`). */
export function operands(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const before = end === -1 ? args : args.slice(0, end);
  return [...before.filter((a) => !isOption(a)), ...(end === -1 ? [] : args.slice(end + 1))];
}

/** Which options of a command take a path the judge wants. */
export interface OptionMatch {
  /** Whether the long option `name` (without `--`, without `=value`) is one. */
  readonly long: (name: string) => boolean;
  /** The letters of the short options that are. */
  readonly short: string;
  /** Whether a separate word after a long option is its value (default: always). */
  readonly separateValue?: (word: string) => boolean;
}

/** The values of the options of `args` that `match` names (`--out=f`, `--out f`, `-of`, `-o f`), up to `--`. */
export function optionValues(args: readonly string[], match: OptionMatch): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (!match.long(a.slice(2, eq === -1 ? undefined : eq))) continue;
      const next = args[i + 1];
      if (eq !== -1) out.push(a.slice(eq + 1));
      else if (next !== undefined && (match.separateValue?.(next) ?? true)) out.push(args[++i]!);
      continue;
    }
    if (!isOption(a) || match.short === '') continue;
    for (let c = 1; c < a.length; c++) {
      if (!match.short.includes(a[c]!)) continue;
      if (c < a.length - 1) out.push(a.slice(c + 1));
      else if (args[i + 1] !== undefined) out.push(args[++i]!);
      break;
    }
  }
  return out;
}
