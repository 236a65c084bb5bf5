/**
 * The ast pack's resource: one parser service and one store of staged edits per session,
 * opened on the first call of an ast tool and closed with the session.
 */
import { type OpenedResource, PermissionDeniedError, type ToolContext, type ToolResource } from '@a3s-code/core';
import { AstError } from './ast-errors.js';
import { EditStore } from './edit-store.js';
import { decodeSource, digestOf } from './ast-files.js';
import type { AstLanguage } from './languages.js';
import { type AstMatch, findMatches, mayMatch } from './matcher.js';
import { type CompiledPattern, compilePattern } from './pattern.js';
import { ParserService } from './parser-service.js';

/** The capability the ast tools require. */
export const AST_RESOURCE = 'resource.ast';

/** The opened ast resource a tool gets from `ctx.resource(AST_RESOURCE)`. */
export interface AstResource extends OpenedResource {
  /** Compiles a pattern (cached per session). */
  compile(language: AstLanguage, pattern: string): Promise<CompiledPattern>;
  /** Matches a compiled pattern in one file's text. */
  match(pattern: CompiledPattern, source: string): Promise<AstMatch[]>;
  /** True when `source` does not parse as `language` without syntax errors. */
  hasSyntaxErrors(language: AstLanguage, source: string): Promise<boolean>;
  /** The session's staged edits. */
  readonly edits: EditStore;
}

/** The matches of one file. */
export interface FileMatches {
  readonly path: string;
  readonly source: string;
  /** `sha256:<hex>` of the file's bytes as read. */
  readonly digest: string;
  readonly matches: readonly AstMatch[];
}

/**
 * Reads `files` and yields those with matches, in order; unreadable, binary and huge files are
 * counted as skipped. A file the call's read rules deny fails the call (`PERMISSION_DENIED`).
 */
export async function* matchFiles(
  ctx: ToolContext,
  ast: AstResource,
  pattern: CompiledPattern,
  files: readonly string[],
  skipped: string[],
): AsyncGenerator<FileMatches> {
  const fs = ctx.workspace.fs!;
  for (const path of files) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(path, { signal: ctx.signal });
    } catch (error) {
      // A file the session may not read is refused, naming the rule, never searched as "unreadable".
      if (ctx.signal.aborted || error instanceof PermissionDeniedError) throw error;
      skipped.push(path);
      continue;
    }
    const source = decodeSource(bytes);
    if (source === undefined) {
      skipped.push(path);
      continue;
    }
    if (!mayMatch(pattern, source)) continue;
    const matches = await ast.match(pattern, source).catch((e: unknown) => {
      // Which file the pattern was too costly in: the model can leave it out or narrow the pattern.
      if (e instanceof AstError && e.code === 'AST_PATTERN_TOO_COSTLY')
        throw new AstError(e.code, `${path}: ${e.message}`, { ...e.details, path });
      throw e;
    });
    if (matches.length > 0) yield { path, source, digest: digestOf(bytes), matches };
  }
}

const CACHE = 64;

/** Opens the resource: starts the parser service (web-tree-sitter loads here, on first use). */
export async function openAstResource(): Promise<AstResource> {
  const parser = await ParserService.start();
  const patterns = new Map<string, Promise<CompiledPattern>>();
  const edits = new EditStore();
  return {
    edits,
    compile(language, pattern) {
      const key = `${language.id}\u0000${pattern}`;
      let p = patterns.get(key);
      if (p === undefined) {
        p = compilePattern(parser, language, pattern);
        p.catch(() => patterns.delete(key));
        if (patterns.size >= CACHE) patterns.delete(patterns.keys().next().value!);
        patterns.set(key, p);
      }
      return p;
    },
    async match(pattern, source) {
      const tree = await parser.parse(pattern.language, source);
      try {
        return findMatches(pattern, tree, source);
      } finally {
        tree.delete();
      }
    },
    async hasSyntaxErrors(language, source) {
      const tree = await parser.parse(language, source);
      try {
        return tree.rootNode.hasError;
      } finally {
        tree.delete();
      }
    },
    close: async () => {
      edits.clear();
      parser.close();
    },
  };
}

/** The resource of the ast pack. */
export const astResource: ToolResource<AstResource> = {
  capability: AST_RESOURCE,
  opens: 'lazy',
  open: () => openAstResource(),
};
