/**
 * `@a3s-code/tools-resource`: the resource-bound tool packs. Each family is its own pack on its
 * own subpath export, loading its heavy parts only on first use: `@a3s-code/tools-resource/ast`
 * (`ast_grep`, `ast_edit`, `resolve` on tree-sitter). This entry names the families only.
 */

/** The resource families of this package and the subpath each is exported from. */
export const RESOURCE_PACK_FAMILIES: Readonly<Record<string, string>> = Object.freeze({
  ast: '@a3s-code/tools-resource/ast',
  lsp: '@a3s-code/tools-resource/lsp',
  debug: '@a3s-code/tools-resource/debug',
  eval: '@a3s-code/tools-resource/eval',
  vibe: '@a3s-code/tools-resource/vibe',
});
