/**
 * Pattern compilation: metavariables become placeholder identifiers, the fragment is parsed by
 * the target grammar inside each wrapping context in order, and the first parse without errors
 * gives the pattern tree (the smallest node spanning the fragment, or the run of siblings that
 * does). Unparseable patterns fail with `AST_PATTERN_UNPARSEABLE`, never an empty search.
 */
import type { Node } from 'web-tree-sitter';
import { AstError } from './ast-errors.js';
import type { AstLanguage, PatternContext } from './languages.js';
import { checkMetavariableNames } from './metavar-names.js';
import type { ParserService } from './parser-service.js';

/** A metavariable in a pattern: `$NAME` (one node), `$$$NAME` (a run of siblings), `$_` (binds nothing). */
export interface MetaPattern {
  readonly kind: 'meta';
  /** The captured name; `undefined` for `$_`, `$$$` and names starting with `_`. */
  readonly name: string | undefined;
  readonly multi: boolean;
}

/** A concrete node of a pattern: its type, and its text when it is a leaf. */
export interface NodePattern {
  readonly kind: 'node';
  readonly type: string;
  readonly named: boolean;
  /** The leaf's text; `undefined` for inner nodes. */
  readonly text: string | undefined;
  readonly children: readonly PatternItem[];
}

/** One item of a pattern tree. */
export type PatternItem = MetaPattern | NodePattern;

/** A compiled pattern. */
export interface CompiledPattern {
  readonly language: AstLanguage;
  /** The pattern as written. */
  readonly source: string;
  /** The wrapping context that accepted it. */
  readonly context: string;
  /** The pattern's roots: one node, or a run of siblings. */
  readonly roots: readonly PatternItem[];
  /** Names the pattern binds, in order of first appearance. */
  readonly names: readonly string[];
  /** Texts a file must contain to hold a match (leaf texts of the pattern). */
  readonly literals: readonly string[];
}

// A metavariable is a whole name: `$_foo`, `$Abc` and `$__proto__` are ordinary identifiers (as in ast-grep).
const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)?(?![A-Za-z0-9_])|\$([A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])/g;

interface Substituted {
  readonly text: string;
  readonly metas: ReadonlyMap<string, MetaPattern>;
  readonly names: readonly string[];
}

/** Replaces each metavariable with a placeholder identifier the grammar parses as a name. */
function substitute(pattern: string): Substituted {
  const metas = new Map<string, MetaPattern>();
  const byKey = new Map<string, string>();
  const names: string[] = [];
  const text = pattern.replace(METAVAR, (whole, multiName: string | undefined, singleName: string | undefined) => {
    const multi = whole.startsWith('$$$');
    const raw = multi ? (multiName ?? '') : (singleName ?? '');
    const binds = raw !== '' && !raw.startsWith('_');
    const key = binds ? `${multi ? 'm' : 's'}:${raw}` : `anon:${metas.size}`;
    let placeholder = byKey.get(key);
    if (placeholder === undefined) {
      placeholder = `a3s_mv${metas.size}_${multi ? 'm' : 's'}`;
      byKey.set(key, placeholder);
      metas.set(placeholder, { kind: 'meta', name: binds ? raw : undefined, multi });
      if (binds && !names.includes(raw)) names.push(raw);
    }
    return placeholder;
  });
  return { text, metas, names };
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length))).join('\n');
}

/** The fragment as placed in `context`. */
function placed(language: AstLanguage, context: PatternContext, fragment: string): string {
  if (language.indentSensitive === true && context.prefix.endsWith(':\n'))
    return fragment
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
  return fragment;
}

/** How deep a pattern tree may nest (syntax tree levels); deeper patterns are refused. */
export const MAX_PATTERN_DEPTH = 400;

/** A pattern nests deeper than {@link MAX_PATTERN_DEPTH}. */
class TooDeep extends Error {}

/** Converts a pattern node: a node whose whole text is a placeholder is that metavariable. */
function convert(node: Node, metas: ReadonlyMap<string, MetaPattern>, depth = 0): PatternItem {
  if (depth > MAX_PATTERN_DEPTH) throw new TooDeep();
  const text = node.text;
  const meta = metas.get(text);
  if (meta !== undefined) return meta;
  // `$$$BODY;` in a statement list stands for the statements, as `$$$BODY` does.
  const statements = text.endsWith(';') ? metas.get(text.slice(0, -1).trimEnd()) : undefined;
  if (statements?.multi === true) return statements;
  const children = node.children.filter((c) => !c.isExtra);
  if (children.length === 0) return { kind: 'node', type: node.type, named: node.isNamed, text, children: [] };
  return {
    kind: 'node',
    type: node.type,
    named: node.isNamed,
    text: undefined,
    children: children.map((c) => convert(c, metas, depth + 1)),
  };
}

function literalsOf(items: readonly PatternItem[], out: Set<string>): void {
  for (const item of items) {
    if (item.kind === 'meta') continue;
    if (item.text !== undefined && item.text.trim().length > 0) out.add(item.text);
    literalsOf(item.children, out);
  }
}

/** The roots of the fragment `[start, end)` in a tree parsed without errors. */
function rootsOf(root: Node, start: number, end: number): Node[] {
  const node = root.descendantForIndex(start, end);
  if (node === null) return [];
  // The file node itself (several top-level statements) stands for its children.
  if (node.startIndex === start && node.endIndex === end && node.parent !== null) return [node];
  const inside = node.children.filter((c) => !c.isExtra && c.startIndex >= start && c.endIndex <= end);
  if (inside.length === 0 || inside[0]!.startIndex !== start || inside[inside.length - 1]!.endIndex !== end) return [];
  return inside;
}

/** The pattern tree of `fragment` parsed in `context`, or `undefined` when the parse has errors. */
async function inContext(
  parser: ParserService,
  language: AstLanguage,
  context: PatternContext,
  fragment: string,
  sub: Substituted,
): Promise<Pick<CompiledPattern, 'roots' | 'names' | 'literals'> | undefined> {
  const body = placed(language, context, fragment);
  const tree = await parser.parse(language, context.prefix + body + context.suffix);
  try {
    if (tree.rootNode.hasError) return undefined;
    const start = context.prefix.length + (body.length - body.trimStart().length);
    const roots = rootsOf(tree.rootNode, start, context.prefix.length + body.length);
    if (roots.length === 0) return undefined;
    const items = roots.map((r) => convert(r, sub.metas));
    const literals = new Set<string>();
    literalsOf(items, literals);
    return { roots: items, names: sub.names, literals: [...literals] };
  } finally {
    tree.delete();
  }
}

/**
 * Compiles `pattern` for `language`.
 * @throws AstError `AST_PATTERN_UNPARSEABLE` naming the language and the contexts tried;
 *   `AST_METAVARIABLE_NAME` for a `$` word such as `$__proto__` that is not a metavariable name.
 */
export async function compilePattern(
  parser: ParserService,
  language: AstLanguage,
  pattern: string,
): Promise<CompiledPattern> {
  checkMetavariableNames(pattern, 'pattern');
  const sub = substitute(pattern);
  const fragment = language.indentSensitive === true ? dedent(sub.text).trim() : sub.text.trim();
  const tried: string[] = [];
  // `{ $$$BODY }` where statements need a terminator: also try `{ $$$BODY; }`.
  const terminated = fragment.replace(/(a3s_mv\d+_m)(\s*\})/g, '$1;$2');
  const variants = language.indentSensitive === true || terminated === fragment ? [fragment] : [fragment, terminated];
  // A statement written without its final `;` (`if ($X != null) $X.dispose()` in Dart or Java) is
  // tried with it only after every context refused the fragment as written, so a fragment that
  // parses as an expression keeps matching expressions.
  const passes =
    language.indentSensitive === true || /[;}]$/.test(fragment) ? [variants] : [variants, [`${fragment};`]];
  if (fragment !== '') {
    for (const [pass, context] of passes.flatMap((p) => language.contexts.map((c) => [p, c] as const))) {
      if (pass === variants) tried.push(context.name);
      for (const variant of pass) {
        let found: Awaited<ReturnType<typeof inContext>>;
        try {
          found = await inContext(parser, language, context, variant, sub);
        } catch (error) {
          if (!(error instanceof TooDeep)) throw error;
          throw new AstError(
            'AST_PATTERN_UNPARSEABLE',
            `pattern ${JSON.stringify(pattern.slice(0, 200))} nests deeper than ${MAX_PATTERN_DEPTH} syntax levels as ${language.id}; allowed: a pattern nesting at most ${MAX_PATTERN_DEPTH} levels (use $X or $$$X in place of deep inner code)`,
            { language: language.id, max_depth: MAX_PATTERN_DEPTH },
          );
        }
        if (found !== undefined) return { language, source: pattern, context: context.name, ...found };
      }
    }
  }
  throw new AstError(
    'AST_PATTERN_UNPARSEABLE',
    `pattern ${JSON.stringify(pattern.slice(0, 200))} does not parse as ${language.id} in any context tried (${tried.join(', ') || 'none: the pattern is empty'}); write a complete ${language.id} statement, expression, class member or declaration, with $NAME, $$$NAME or $_ in place of code`,
    { language: language.id, contexts: tried },
  );
}
