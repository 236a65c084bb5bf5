/**
 * `@a3s-code/tools-resource/ast`: structural search and staged structural rewrite on a
 * tree-sitter parser (`ast_grep`, `ast_edit`, `resolve`). Importing it loads no grammar and no
 * parser: web-tree-sitter loads when the session's ast resource opens (the first ast call), and
 * each grammar when a file of its language is first parsed.
 */
export { astToolPack, AST_TOOL_PACK_VERSION } from './ast/pack.js';
export { AST_RESOURCE, astResource, openAstResource } from './ast/ast-resource.js';
export type { AstResource, FileMatches } from './ast/ast-resource.js';
export { AstError } from './ast/ast-errors.js';
export type { AstErrorCode } from './ast/ast-errors.js';
export { AST_LANGUAGES, AST_LANGUAGE_IDS, languageById, languageOfPath } from './ast/languages.js';
export type { AstLanguage, PatternContext } from './ast/languages.js';
export type { AstCapture, AstMatch } from './ast/matcher.js';
export type { CompiledPattern, MetaPattern, NodePattern, PatternItem } from './ast/pattern.js';
export { EditStore } from './ast/edit-store.js';
export type { EditOutcome, StagedEdit, StagedFile } from './ast/edit-store.js';
export { astGrepTool } from './ast/ast-grep-tool.js';
export type { AstGrepArgs } from './ast/ast-grep-tool.js';
export { astEditTool } from './ast/ast-edit-tool.js';
export type { AstEditArgs } from './ast/ast-edit-tool.js';
export { resolveTool } from './ast/resolve-tool.js';
export type { ResolveArgs } from './ast/resolve-tool.js';
