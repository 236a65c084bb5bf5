/**
 * Reads a grep pattern in JavaScript's regex syntax (without the `u` flag) before it is compiled:
 * refuses back-references and look-arounds, which ripgrep's default engine refuses too and which
 * V8 can only run by backtracking without bound, and spells case-insensitivity out as character
 * classes (`a` becomes `[aA]`), because V8 runs a case-insensitive pattern only on its
 * backtracking engine. Matches are exactly those of the `i` flag.
 */
import { WorkspaceSearchError } from '../errors.js';

/** What a refusal of back-references or look-arounds says is allowed instead (both engines). */
export const UNSUPPORTED_SYNTAX_ALLOWED =
  'allowed: ripgrep regex syntax without back-references (\\1, \\k<name>) or look-arounds ((?=…), (?!…), (?<=…), (?<!…)); ' +
  'search for the simpler pattern and read the matching lines instead';

function refuse(what: string, at: number, source: string): never {
  throw new WorkspaceSearchError(
    'pattern',
    `${what} at offset ${at} of ${JSON.stringify(source.slice(0, 200))} ${what.endsWith('s') ? 'are' : 'is'} not supported; ${UNSUPPORTED_SYNTAX_ALLOWED}`,
  );
}

let classes: Map<number, number[]> | undefined;

/** The canonical form of a code unit under the `i` flag without `u` (ECMAScript's Canonicalize). */
function canonical(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const u = upper.charCodeAt(0);
  return unit >= 128 && u < 128 ? unit : u;
}

/** Every code unit the `i` flag treats as equal to `unit` (itself included). */
function variants(unit: number): readonly number[] {
  if (!classes) {
    classes = new Map();
    for (let c = 0; c <= 0xffff; c++) {
      const k = canonical(c);
      const list = classes.get(k);
      if (list) list.push(c);
      else classes.set(k, [c]);
    }
  }
  return classes.get(canonical(unit)) ?? [unit];
}

function hex(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/** Compact class text (`\uXXXX` and `\uXXXX-\uYYYY`) for a sorted set of code units. */
function classText(units: readonly number[]): string {
  let out = '';
  for (let i = 0; i < units.length; ) {
    let j = i;
    while (j + 1 < units.length && units[j + 1] === units[j]! + 1) j++;
    out += j === i ? hex(units[i]!) : `${hex(units[i]!)}-${hex(units[j]!)}`;
    i = j + 1;
  }
  return out;
}

/** One escape: its length and, when it stands for one character, that character's code unit. */
interface Escape {
  readonly length: number;
  readonly unit?: number;
}

const CONTROL: Readonly<Record<string, number>> = { f: 12, n: 10, r: 13, t: 9, v: 11 };

/** Reads the escape at `at` (a backslash); `inClass` selects class rules (`\b` is a backspace). */
function readEscape(source: string, at: number, inClass: boolean): Escape {
  const d = source[at + 1];
  if (d === undefined) return { length: 1 };
  if (/[0-9]/.test(d)) refuse('back-references', at, source); // rg reads `\0`…`\9` so, even in a class
  if (d === 'k' && source[at + 2] === '<' && !inClass) refuse('named back-references', at, source);
  if (d === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(at + 2, at + 4)))
    return { length: 4, unit: Number.parseInt(source.slice(at + 2, at + 4), 16) };
  if (d === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(at + 2, at + 6)))
    return { length: 6, unit: Number.parseInt(source.slice(at + 2, at + 6), 16) };
  if (d === 'c' && /[A-Za-z]/.test(source[at + 2] ?? '')) return { length: 3, unit: source.charCodeAt(at + 2) % 32 };
  if (d in CONTROL) return { length: 2, unit: CONTROL[d]! };
  if (d === 'b') return inClass ? { length: 2, unit: 8 } : { length: 2 };
  if (/[BdDsSwWc]/.test(d)) return { length: 2 }; // a class or an assertion, not one character
  if ((d === 'p' || d === 'P') && source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    if (close > 0) return { length: close - at + 1 }; // a Unicode property class, read in Unicode mode
  }
  if ((d === 'p' || d === 'P') && /[A-Z]/.test(source[at + 2] ?? '')) return { length: 3 }; // `\pL`
  return { length: 2, unit: d.charCodeAt(0) }; // an identity escape (`\.`, `\-`, `\e`…)
}

/** Reads the class at `at` (`[`); returns its end and its text with case variants added. */
function readClass(source: string, at: number, fold: boolean): { end: number; text: string } {
  let i = at + 1;
  if (source[i] === '^') i++;
  const units: number[] = [];
  let prev: number | undefined;
  let range = false;
  while (i < source.length && source[i] !== ']') {
    let unit: number | undefined;
    if (source[i] === '\\') {
      const e = readEscape(source, i, true);
      unit = e.unit;
      i += e.length;
    } else {
      unit = source.charCodeAt(i);
      i++;
    }
    if (range && prev !== undefined && unit !== undefined && prev <= unit) {
      for (let c = prev + 1; c <= unit; c++) units.push(c);
      range = false;
      prev = undefined;
      continue;
    }
    range = false;
    if (unit === 45 && prev !== undefined && source[i] !== ']') {
      range = true; // `a-z`: the end comes next
      continue;
    }
    if (unit !== undefined) units.push(unit);
    prev = unit;
  }
  const end = Math.min(i + 1, source.length);
  if (!fold || i >= source.length) return { end, text: source.slice(at, end) };
  const have = new Set(units);
  const extra = new Set<number>();
  for (const u of have) for (const v of variants(u)) if (!have.has(v)) extra.add(v);
  const added = classText([...extra].sort((a, b) => a - b));
  return { end, text: `${source.slice(at, i)}${added}]` };
}

/** A literal code unit as pattern text: itself, or a class of its case variants when folding. */
function literal(text: string, unit: number, fold: boolean): string {
  if (!fold) return text;
  const all = variants(unit);
  return all.length > 1 ? `[${classText(all)}]` : text;
}

/**
 * A Unicode property class as JavaScript spells it: ripgrep also takes a one-letter class without
 * braces (`\pL`) and a script by its bare name (`\p{Greek}`, `\p{greek}`), which JavaScript
 * writes `\p{Script=Greek}`. A name JavaScript does not know is left for the compiler to refuse.
 */
function propertyClass(text: string): string {
  const name = text[2] === '{' ? text.slice(3, -1) : text.slice(2);
  const title = name.replace(/(^|_)([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
  for (const candidate of [name, title, `Script=${name}`, `Script=${title}`]) {
    const spelled = `\\${text[1]}{${candidate}}`;
    try {
      new RegExp(spelled, 'u');
      return spelled;
    } catch {
      // Not this spelling.
    }
  }
  return text;
}

/** The characters Unicode mode lets a backslash escape outside a class. */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');

/**
 * Checks a JS regex source and returns the source to compile (case variants spelled out when
 * `fold`). Throws `WORKSPACE_SEARCH` naming `pattern` for back-references and look-arounds.
 * With `unicode` (the source is compiled with the `u` flag), an escaped punctuation character that
 * Unicode mode refuses (`\-`, `\"`, as ripgrep allows them) is written as its code.
 */
export function prepareSource(source: string, fold: boolean, unicode = false): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const e = readEscape(source, i, false);
      let text = source.slice(i, i + e.length);
      if (/^\\[pP]/.test(text) && e.unit === undefined) text = propertyClass(text);
      const identity = e.length === 2 && e.unit !== undefined && !/[0-9A-Za-z]/.test(text[1]!);
      if (unicode && identity && !SYNTAX.has(text[1]!)) text = hex(e.unit!);
      out += e.unit === undefined ? text : literal(text, e.unit, fold);
      i += e.length;
    } else if (c === '[') {
      const cls = readClass(source, i, fold);
      out += cls.text;
      i = cls.end;
    } else if (c === '(' && source[i + 1] === '?') {
      if (/^\(\?(?:=|!|<=|<!)/.test(source.slice(i, i + 4))) refuse('look-arounds', i, source);
      const close = source.indexOf('>', i);
      const end = source[i + 2] === '<' && close > 0 ? close + 1 : i + 2; // a group name stays as written
      out += source.slice(i, end);
      i = end;
    } else {
      out += literal(c, source.charCodeAt(i), fold);
      i++;
    }
  }
  return out;
}
