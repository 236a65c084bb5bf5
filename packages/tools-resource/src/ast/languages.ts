/**
 * The languages `ast_grep` and `ast_edit` know: each id, the file extensions it is inferred
 * from, where its grammar's `.wasm` file lives, and the wrapping contexts a pattern is parsed
 * in, in the order they are tried. Nothing here loads a grammar; it only names the files.
 */

/** A wrapping context: the fragment is placed between `prefix` and `suffix` before parsing. */
export interface PatternContext {
  /** What the context holds: `statement`, `expression`, `class member` or `declaration`. */
  readonly name: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** A language a grammar is bundled for. */
export interface AstLanguage {
  /** The id the tools accept in `language`. */
  readonly id: string;
  /** File extensions (with the dot) the language is inferred from. */
  readonly extensions: readonly string[];
  /** Package whose folder holds the grammar, and the grammar file's path inside it. */
  readonly grammar: { readonly package: string; readonly file: string };
  /** Wrapping contexts, tried in this order. */
  readonly contexts: readonly PatternContext[];
  /** Python-like: the fragment is dedented, and indented under a context's block. */
  readonly indentSensitive?: boolean;
}

const VSCODE = '@vscode/tree-sitter-wasm';

const bare = (name: string): PatternContext => ({ name, prefix: '', suffix: '' });

function jsLike(id: string, file: string, extensions: readonly string[]): AstLanguage {
  return {
    id,
    extensions,
    grammar: { package: VSCODE, file: `wasm/${file}` },
    contexts: [
      bare('statement'),
      { name: 'expression', prefix: 'a3s_ctx = (', suffix: '\n);' },
      { name: 'class member', prefix: 'class A3sCtx {\n', suffix: '\n}' },
      { name: 'declaration', prefix: 'export ', suffix: '' },
    ],
  };
}

/** Every language with a grammar that loads in web-tree-sitter 0.27, by id. */
export const AST_LANGUAGES: readonly AstLanguage[] = [
  jsLike('typescript', 'tree-sitter-typescript.wasm', ['.ts', '.mts', '.cts']),
  jsLike('tsx', 'tree-sitter-tsx.wasm', ['.tsx']),
  jsLike('javascript', 'tree-sitter-javascript.wasm', ['.js', '.mjs', '.cjs', '.jsx']),
  {
    id: 'python',
    extensions: ['.py', '.pyi'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-python.wasm' },
    indentSensitive: true,
    contexts: [
      bare('statement'),
      { name: 'expression', prefix: 'a3s_ctx = (\n', suffix: '\n)' },
      { name: 'class member', prefix: 'class A3sCtx:\n', suffix: '' },
    ],
  },
  {
    id: 'rust',
    extensions: ['.rs'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-rust.wasm' },
    contexts: [
      { name: 'statement', prefix: 'fn a3s_ctx() {\n', suffix: '\n}' },
      { name: 'expression', prefix: 'fn a3s_ctx() {\nlet _ = (\n', suffix: '\n);\n}' },
      { name: 'class member', prefix: 'impl A3sCtx {\n', suffix: '\n}' },
      { name: 'struct field', prefix: 'struct A3sCtx {\n', suffix: '\n}' },
      bare('declaration'),
    ],
  },
  {
    id: 'go',
    extensions: ['.go'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-go.wasm' },
    contexts: [
      { name: 'statement', prefix: 'package a3s\nfunc a3sCtx() {\n', suffix: '\n}' },
      { name: 'expression', prefix: 'package a3s\nvar a3sCtx = (\n', suffix: '\n)' },
      { name: 'class member', prefix: 'package a3s\ntype a3sCtx struct {\n', suffix: '\n}' },
      { name: 'declaration', prefix: 'package a3s\n', suffix: '' },
    ],
  },
  {
    id: 'c',
    extensions: ['.c', '.h'],
    grammar: { package: 'tree-sitter-c', file: 'tree-sitter-c.wasm' },
    contexts: [
      { name: 'statement', prefix: 'void a3s_ctx(void) {\n', suffix: '\n}' },
      { name: 'expression', prefix: 'void a3s_ctx(void) {\n(\n', suffix: '\n);\n}' },
      { name: 'class member', prefix: 'struct a3s_ctx {\n', suffix: '\n};' },
      bare('declaration'),
    ],
  },
  {
    id: 'cpp',
    extensions: ['.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-cpp.wasm' },
    contexts: [
      { name: 'statement', prefix: 'void a3s_ctx() {\n', suffix: '\n}' },
      { name: 'expression', prefix: 'void a3s_ctx() {\n(\n', suffix: '\n);\n}' },
      { name: 'class member', prefix: 'class A3sCtx {\n', suffix: '\n};' },
      bare('declaration'),
    ],
  },
  {
    id: 'java',
    extensions: ['.java'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-java.wasm' },
    contexts: [
      { name: 'statement', prefix: 'class A3sCtx {\nvoid a3sCtx() {\n', suffix: '\n}\n}' },
      { name: 'expression', prefix: 'class A3sCtx {\nObject a3sCtx = (\n', suffix: '\n);\n}' },
      { name: 'class member', prefix: 'class A3sCtx {\n', suffix: '\n}' },
      bare('declaration'),
    ],
  },
  {
    id: 'bash',
    extensions: ['.sh', '.bash'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-bash.wasm' },
    contexts: [bare('statement')],
  },
  {
    id: 'ruby',
    extensions: ['.rb'],
    grammar: { package: VSCODE, file: 'wasm/tree-sitter-ruby.wasm' },
    contexts: [
      bare('statement'),
      { name: 'expression', prefix: 'a3s_ctx = (\n', suffix: '\n)' },
      { name: 'class member', prefix: 'class A3sCtx\n', suffix: '\nend' },
    ],
  },
  {
    id: 'dart',
    extensions: ['.dart'],
    grammar: { package: '@repomix/tree-sitter-wasms', file: 'out/tree-sitter-dart.wasm' },
    contexts: [
      { name: 'statement', prefix: 'void a3sCtx() {\n', suffix: '\n}' },
      { name: 'expression', prefix: 'var a3sCtx = (\n', suffix: '\n);' },
      { name: 'class member', prefix: 'class A3sCtx {\n', suffix: '\n}' },
      bare('declaration'),
    ],
  },
];

const BY_ID = new Map(AST_LANGUAGES.map((l) => [l.id, l]));
const BY_EXTENSION = new Map(AST_LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)));

/** The ids of {@link AST_LANGUAGES}. */
export const AST_LANGUAGE_IDS: readonly string[] = AST_LANGUAGES.map((l) => l.id);

/** Common other names of the languages (`ts`, `py`, `c++`, `golang`, …), lowercase. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['ts', 'typescript'],
  ['js', 'javascript'],
  ['node', 'javascript'],
  ['py', 'python'],
  ['python3', 'python'],
  ['rs', 'rust'],
  ['golang', 'go'],
  ['c++', 'cpp'],
  ['cxx', 'cpp'],
  ['sh', 'bash'],
  ['shell', 'bash'],
  ['rb', 'ruby'],
]);

/**
 * The language of `id`, or `undefined`: an id of {@link AST_LANGUAGE_IDS} in any case and with
 * surrounding blanks, a common other name (`ts`, `py`, `c++`) or a file extension (`.rs`).
 */
export function languageById(id: string): AstLanguage | undefined {
  const name = id.trim().toLowerCase();
  const aka = ALIASES.get(name);
  return BY_ID.get(name) ?? (aka === undefined ? undefined : BY_ID.get(aka)) ?? BY_EXTENSION.get(name);
}

/** The language a file's extension names, or `undefined`. */
export function languageOfPath(path: string): AstLanguage | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return undefined;
  return BY_EXTENSION.get(path.slice(dot).toLowerCase());
}
