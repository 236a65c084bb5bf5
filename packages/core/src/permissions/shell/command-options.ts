/**
 * Reads the options of a command-running wrapper (`sudo -u root`, `timeout -k 5 10`, `xargs -0`)
 * so the judge can find the command it runs. The scan is strict: an option it does not know, or a
 * word whose value is computed at run time where an option may stand, makes the scan `unknown`,
 * and the judge then treats the command as one it cannot name (fail closed).
 */
import { isStatic, type ShellWord } from './shell-word.js';

/** The options a wrapper accepts. */
export interface OptionSpec {
  /** Short options without a value (`-0`, `-E`). */
  readonly flags?: string;
  /** Short options with a value, attached (`-n5`) or in the next word (`-n 5`). */
  readonly valued?: string;
  /** Short options whose optional value can only be attached (`xargs -i{}`, `-l5`). */
  readonly attached?: string;
  /** Long options (without `--`), mapped to whether they take a value. */
  readonly long?: Readonly<Record<string, boolean>>;
  /** True when `-5`, `-10` are options (`nice -5`). */
  readonly numeric?: boolean;
}

/** The result of a scan: where the operands start, and what was seen, or `unknown`. */
export type OptionScan =
  | {
      readonly kind: 'ok';
      /** Index of the first operand (the wrapped command, or a leading operand like a duration). */
      readonly next: number;
      /** Short option letters and long option names that were given. */
      readonly seen: ReadonlySet<string>;
      /** Values of valued options (the last one wins), keyed like `seen`; `undefined` when computed. */
      readonly values: ReadonlyMap<string, string | undefined>;
    }
  | { readonly kind: 'unknown' };

const UNKNOWN: OptionScan = { kind: 'unknown' };

/** Scans the options of the wrapper whose name is `words[from - 1]`. */
export function scanOptions(words: readonly ShellWord[], from: number, spec: OptionSpec): OptionScan {
  const seen = new Set<string>();
  const values = new Map<string, string | undefined>();
  const valueOfWord = (w: ShellWord | undefined): string | undefined | null => {
    if (w === undefined || w.splits) return null;
    return isStatic(w) ? w.text : undefined;
  };
  let i = from;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!isStatic(w)) return UNKNOWN;
    const t = w.text;
    if (t === '--') return { kind: 'ok', next: i + 1, seen, values };
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = t.slice(2, eq === -1 ? undefined : eq);
      const takes = spec.long?.[name];
      if (takes === undefined) return UNKNOWN;
      seen.add(name);
      if (takes && eq === -1) {
        const v = valueOfWord(words[++i]);
        if (v === null) return UNKNOWN;
        values.set(name, v);
      } else if (eq !== -1) values.set(name, t.slice(eq + 1));
      continue;
    }
    if (!t.startsWith('-') || t === '-') break;
    if (spec.numeric === true && /^-\d+$/.test(t)) continue;
    for (let c = 1; c < t.length; c++) {
      const letter = t[c]!;
      seen.add(letter);
      if (spec.attached?.includes(letter)) {
        values.set(letter, t.slice(c + 1));
        break;
      }
      if (spec.valued?.includes(letter)) {
        const rest = t.slice(c + 1);
        if (rest.length > 0) values.set(letter, rest);
        else {
          const v = valueOfWord(words[++i]);
          if (v === null) return UNKNOWN;
          values.set(letter, v);
        }
        break;
      }
      if (!spec.flags?.includes(letter)) return UNKNOWN;
    }
  }
  return { kind: 'ok', next: i, seen, values };
}

/** The result of {@link scanArguments}: the operands, and the options as in {@link OptionScan}. */
export type ArgumentScan =
  | {
      readonly kind: 'ok';
      /** The words that are not options or their values, in order (all of them after `--`). */
      readonly operands: readonly ShellWord[];
      readonly seen: ReadonlySet<string>;
      readonly values: ReadonlyMap<string, string | undefined>;
    }
  | { readonly kind: 'unknown' };

/**
 * Scans all of a command's arguments `args` as GNU programs read them: options may follow
 * operands (up to `--`). Strict as {@link scanOptions}: an option `spec` does not know, or a word
 * computed at run time, makes the scan `unknown`.
 */
export function scanArguments(args: readonly ShellWord[], spec: OptionSpec): ArgumentScan {
  const operands: ShellWord[] = [];
  const seen = new Set<string>();
  const values = new Map<string, string | undefined>();
  for (let i = 0; i < args.length; ) {
    const scan = scanOptions(args, i, spec);
    if (scan.kind === 'unknown') return { kind: 'unknown' };
    for (const s of scan.seen) seen.add(s);
    for (const [k, v] of scan.values) values.set(k, v);
    if (scan.next > i && args[scan.next - 1]!.text === '--') {
      operands.push(...args.slice(scan.next));
      break;
    }
    if (scan.next >= args.length) break;
    operands.push(args[scan.next]!);
    i = scan.next + 1;
  }
  return { kind: 'ok', operands, seen, values };
}
