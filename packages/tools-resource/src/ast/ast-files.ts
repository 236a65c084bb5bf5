/**
 * The files an ast call reads: one file, or every file of the language under a folder (through
 * the workspace's search, so `.gitignore` is honoured), never the workspace's private `.a3s`
 * folder nor Git's `.git` internals. Decoding refuses binary and non-UTF-8 files.
 */
import { CapabilityUnavailableError, PermissionDeniedError, type ToolContext } from '@a3s-code/core';
import { createHash } from 'node:crypto';
import { AstError } from './ast-errors.js';
import { AST_LANGUAGE_IDS, type AstLanguage, languageById, languageOfPath } from './languages.js';

/** Files larger than this are skipped, in bytes. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** True for paths tools never touch: `.a3s/…` and any `.git` segment. */
export function isProtectedPath(path: string): boolean {
  const segments = path.split('/');
  return segments[0]?.toLowerCase() === '.a3s' || segments.some((s) => s.toLowerCase() === '.git');
}

/** `path` without `.`, empty and (lexically resolved) `..` segments; one that climbs out is kept as it is. */
function normalize(path: string | undefined): string {
  if (path === undefined) return '';
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s !== '..') out.push(s);
    else if (out.pop() === undefined) return path;
  }
  return out.join('/');
}

/** What an ast call searches: its language and the files, in lexical order. */
export interface AstTarget {
  readonly language: AstLanguage;
  readonly files: readonly string[];
}

/**
 * Resolves `path` (default: the workspace) and `language` to the files to search.
 * @throws AstError `AST_LANGUAGE` when the language is unknown, or missing for a folder;
 *   `AST_PATH` when `forWrite` and `path` names `.a3s/` or a `.git/` folder or anything in them.
 */
export async function resolveTarget(
  ctx: ToolContext,
  path: string | undefined,
  language: string | undefined,
  forWrite = false,
): Promise<AstTarget> {
  const fs = ctx.workspace.fs;
  const search = ctx.workspace.search;
  if (fs === undefined) throw new CapabilityUnavailableError('fs.read', 'ast search');
  const root = ctx.workspace.root.replace(/\/+$/, '');
  const rel = normalize(path?.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);
  if (forWrite && isProtectedPath(rel))
    throw new AstError(
      'AST_PATH',
      `path ${JSON.stringify(path)} is inside a folder tools may not write (the workspace's .a3s/ or a .git/ folder); allowed: workspace files outside them`,
      { path },
    );
  const stat = rel === '' ? undefined : await fs.stat(path!, { signal: ctx.signal });
  if (rel !== '' && stat === undefined)
    throw new AstError('AST_PATH', `path ${JSON.stringify(path)} does not exist in the workspace`, { path });
  const named = language === undefined ? undefined : languageById(language);
  if (language !== undefined && named === undefined)
    throw new AstError(
      'AST_LANGUAGE',
      `language ${JSON.stringify(language)} is not bundled; allowed: ${AST_LANGUAGE_IDS.join(', ')}`,
      { language, allowed: AST_LANGUAGE_IDS },
    );
  if (stat !== undefined && stat.kind !== 'directory') {
    const lang = named ?? languageOfPath(rel);
    if (lang === undefined)
      throw new AstError(
        'AST_LANGUAGE',
        `cannot infer the language of ${JSON.stringify(path)} from its extension; pass language, one of: ${AST_LANGUAGE_IDS.join(', ')}`,
        { path, allowed: AST_LANGUAGE_IDS },
      );
    return { language: lang, files: isProtectedPath(rel) ? [] : [rel] };
  }
  if (named === undefined)
    throw new AstError(
      'AST_LANGUAGE',
      `language is required when path is not one file; one of: ${AST_LANGUAGE_IDS.join(', ')}`,
      { path: path ?? '', allowed: AST_LANGUAGE_IDS },
    );
  if (search === undefined) throw new CapabilityUnavailableError('search', 'ast search');
  const glob = `*.{${named.extensions.map((e) => e.slice(1)).join(',')}}`;
  const files: string[] = [];
  for await (const p of search.glob({ pattern: glob, signal: ctx.signal, ...(rel === '' ? {} : { path: rel }) })) {
    const full = rel === '' || p === rel || p.startsWith(`${rel}/`) ? p : `${rel}/${p}`;
    if (!isProtectedPath(full) && languageOfPath(full) === named) files.push(full);
  }
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { language: named, files };
}

/** `sha256:<hex>` of bytes or of a text's UTF-8 encoding. */
export function digestOf(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The file's text, or `undefined` when it is too large, binary or not UTF-8. */
export function decodeSource(bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_FILE_BYTES) return undefined;
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Refuses an edit that would write a file the call's write rules (`Edit(…)`, `Write(…)`, an
 * unconfirmed ask rule) hold back, before anything is written: the whole edit or nothing.
 * `editId` is set when `resolve` accepts a staged edit (the edit is then dropped); without it the
 * refusal is worded for `ast_edit`, which has staged nothing yet.
 * @throws PermissionDeniedError naming the rule and the file.
 */
export async function refuseDeniedWrites(
  ctx: ToolContext,
  tool: string,
  paths: readonly string[],
  editId?: string,
): Promise<void> {
  const writeDenied = ctx.workspace.writeDenied;
  if (writeDenied === undefined) return;
  for (const path of paths) {
    const rule = await writeDenied(path);
    if (rule !== undefined)
      throw new PermissionDeniedError(
        tool,
        editId === undefined
          ? `${rule} (the edit would write ${path}); nothing was staged or written: give a path that leaves the file out`
          : `${rule} (accepting ${editId} would write ${path}); nothing was written and ${editId} is dropped: run ast_edit again with a path that leaves the file out`,
      );
  }
}
