/** The parts wrappers are made of: what a wrapper runs, and the usual ways to find it. */
import { scanOptions, type OptionScan, type OptionSpec } from './command-options.js';
import type { ShellWord } from './shell-word.js';

/** What a wrapper runs. */
export type Unwrap =
  /**
   * The command starting at `words[index]`; `moreArgs`: it also gets arguments read at run time;
   * `envAssignments`: the words before it that hold a `=` are `env`'s `NAME=value` settings;
   * `replace`: see below.
   */
  | {
      readonly kind: 'command';
      readonly index: number;
      readonly moreArgs?: boolean;
      readonly envAssignments?: boolean;
      /** Strings that stand for words read at run time wherever they appear (`xargs -I {}`). */
      readonly replace?: readonly string[];
    }
  /** Shell code, judged as a whole command line. */
  | { readonly kind: 'shell'; readonly body: string }
  /** Something that cannot be known statically. */
  | { readonly kind: 'opaque' }
  /** Nothing beyond the wrapper itself (`command -v rm`, `sudo -l`). */
  | { readonly kind: 'none' };

/** Finds what the wrapper at `words[at]` runs. */
export type Wrapper = (words: readonly ShellWord[], at: number) => Unwrap;

/** The wrapper runs something that cannot be known statically. */
export const OPAQUE: Unwrap = { kind: 'opaque' };
/** The wrapper runs nothing beyond itself. */
export const NONE: Unwrap = { kind: 'none' };

/** Long options without a value. */
export const flagsOnly = (...names: string[]): Record<string, boolean> =>
  Object.fromEntries(names.map((n) => [n, false]));
/** Long options with a value. */
export const valued = (...names: string[]): Record<string, boolean> => Object.fromEntries(names.map((n) => [n, true]));

/** The command at `words[index]`, or nothing when the words end before it. */
export function commandAt(words: readonly ShellWord[], index: number, moreArgs = false): Unwrap {
  return index < words.length ? { kind: 'command', index, moreArgs } : NONE;
}

/** A wrapper read as: options, then `leading` operands (a duration, a directory), then the command. */
export function simple(spec: OptionSpec, leading = 0, moreArgs = false): Wrapper {
  return (words, at) => {
    const scan = scanOptions(words, at + 1, spec);
    if (scan.kind === 'unknown') return OPAQUE;
    for (let i = scan.next; i < scan.next + leading; i++)
      if (words[i] === undefined || words[i]!.splits) return words[i] === undefined ? NONE : OPAQUE;
    return commandAt(words, scan.next + leading, moreArgs);
  };
}

/** True when one of the short options `names` was given. */
export const seenAny = (scan: OptionScan & { kind: 'ok' }, names: string): boolean =>
  [...names].some((n) => scan.seen.has(n));

/** The value of the first of `names` that was given: static text, `null` when computed at run time. */
export function optionValue(scan: OptionScan & { kind: 'ok' }, names: readonly string[]): string | null | undefined {
  for (const n of names) if (scan.values.has(n)) return scan.values.get(n) ?? null;
  return undefined;
}

/** Shell code to judge, or opaque when it is computed at run time (`null`). */
export function shellCode(code: string | null): Unwrap {
  return code === null ? OPAQUE : { kind: 'shell', body: code };
}
