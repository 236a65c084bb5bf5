/**
 * The tree-sitter parser service behind the ast tools: web-tree-sitter and each grammar are
 * loaded on first use (the module when the service starts, a grammar when a file of its
 * language is first parsed), never when the package is imported.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Language, Parser, Tree } from 'web-tree-sitter';
import { AstError } from './ast-errors.js';
import type { AstLanguage } from './languages.js';

type TreeSitter = typeof import('web-tree-sitter');

let module: Promise<TreeSitter> | undefined;

/** Loads and initialises web-tree-sitter once per process. */
function loadTreeSitter(): Promise<TreeSitter> {
  module ??= (async () => {
    const ts = await import('web-tree-sitter');
    await ts.Parser.init();
    return ts;
  })();
  module.catch(() => (module = undefined));
  return module;
}

const grammars = new Map<string, Promise<Language>>();

function grammarPath(language: AstLanguage): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`${language.grammar.package}/package.json`)), language.grammar.file);
}

/** Grammar load times of this process, in ms per language id (for benchmarks and status). */
export const grammarLoadMs = new Map<string, number>();

/** A parser service: parses text of any bundled language, loading each grammar once. */
export class ParserService {
  readonly #ts: TreeSitter;
  readonly #parsers = new Map<string, Parser>();

  private constructor(ts: TreeSitter) {
    this.#ts = ts;
  }

  /** Starts the service (loads web-tree-sitter). */
  static async start(): Promise<ParserService> {
    return new ParserService(await loadTreeSitter());
  }

  /** The grammar of `language`, loaded on first request and shared by the process. */
  grammar(language: AstLanguage): Promise<Language> {
    let g = grammars.get(language.id);
    if (g === undefined) {
      const started = performance.now();
      g = (async () => {
        let path = '';
        try {
          path = grammarPath(language);
          const loaded = await this.#ts.Language.load(path);
          grammarLoadMs.set(language.id, performance.now() - started);
          return loaded;
        } catch (error) {
          throw new AstError(
            'AST_GRAMMAR_LOAD',
            `the ${language.id} grammar (${path || language.grammar.package}) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
            { language: language.id, path },
            error,
          );
        }
      })();
      g.catch(() => grammars.delete(language.id));
      grammars.set(language.id, g);
    }
    return g;
  }

  /** Parses `text` as `language`. The caller deletes the tree when done with it. */
  async parse(language: AstLanguage, text: string): Promise<Tree> {
    let parser = this.#parsers.get(language.id);
    if (parser === undefined) {
      const grammar = await this.grammar(language);
      parser = new this.#ts.Parser();
      parser.setLanguage(grammar);
      this.#parsers.set(language.id, parser);
    }
    const tree = parser.parse(text);
    if (tree === null) throw new AstError('AST_GRAMMAR_LOAD', `the ${language.id} parser returned no tree`);
    return tree;
  }

  /** Frees the parsers (grammars stay loaded for the process). */
  close(): void {
    for (const p of this.#parsers.values()) p.delete();
    this.#parsers.clear();
  }
}
