/**
 * The JS search engine: `grep` and `glob` over any `WorkspaceFileSystem` (the in-memory backend,
 * remote backends, or the local disk when ripgrep is unavailable), with the same file selection,
 * order and line semantics as the ripgrep engine.
 */
import type {
  WorkspaceFileSystem,
  WorkspaceGlobRequest,
  WorkspaceGrepMatch,
  WorkspaceGrepRequest,
} from '@a3s-code/core';
import { notRegularError, throwIfAborted } from '../local/fs-errors.js';
import { normalizeWorkspacePath } from '../paths/normalize.js';
import { lineSlices } from './byte-lines.js';
import { readViewLines } from './read-view.js';
import { compileGlob, globMatches, type CompiledGlob } from './glob-pattern.js';
import { matchFolder } from './glob-prefix.js';
import { compileMatcher, type LineMatcher } from './js-regex.js';
import { walkFiles } from './js-walk.js';
import { comparePaths } from './path-order.js';
import {
  type FastWorkspaceSearch,
  type GrepFileCount,
  type GrepPage,
  type GrepPosition,
  SEARCH_TARGETS,
} from './search-types.js';
import { hasUnopenableName } from '../paths/byte-names.js';

/** read's lines of a UTF-16 or CR-only file; `undefined` otherwise, or when its text is too large for one string. */
function viewOf(bytes: Uint8Array): string[] | undefined {
  try {
    return readViewLines(bytes);
  } catch {
    return undefined;
  }
}

/** Files grep searches: not those whose names no file tool opens (listed by ls and glob, never searched). */
async function* skipUnopenable(paths: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const path of paths) if (!hasUnopenableName(path)) yield path;
}

/** A cap on the files one search visits, for backends where each costs a request. */
export interface JsSearchScanCap {
  /** The backend named in scan reports, e.g. `s3`. */
  readonly backend: string;
  /** The most files one search visits. */
  readonly maxObjects: number;
}

/** `WorkspaceSearch` implemented in JavaScript over a file system. */
export class JsSearch implements FastWorkspaceSearch {
  readonly engine = 'js' as const;
  private readonly fs: WorkspaceFileSystem;
  private readonly root: string;
  private readonly cap: JsSearchScanCap | undefined;
  /**
   * `root` is used only to accept absolute paths under it. With `cap`, a search stops after
   * `cap.maxObjects` files and tells the request's `onScan` how far it got.
   */
  constructor(fs: WorkspaceFileSystem, root: string, cap?: JsSearchScanCap) {
    this.fs = fs;
    this.root = root;
    this.cap = cap;
  }

  /** Files a grep request covers: the walk, or the one explicitly named file. */
  private async *targets(
    request: WorkspaceGrepRequest | WorkspaceGlobRequest,
    glob: CompiledGlob | undefined,
    globBase: string,
  ): AsyncGenerator<string> {
    const start = normalizeWorkspacePath(request.path ?? '', { root: this.root, field: 'path' });
    const s = await this.fs.stat(start, { signal: request.signal });
    const cap = this.cap;
    const report = (scanned: number) =>
      cap && request.onScan?.({ backend: cap.backend, scanned, limit: cap.maxObjects, truncated: false });
    if (s?.kind === 'file') {
      report(1);
      yield start; // an explicitly named file is searched whatever the filters say, as rg does
      return;
    }
    if (s?.kind === 'other') throw notRegularError(start, 'a FIFO, socket or device', SEARCH_TARGETS);
    if (s?.kind !== 'directory') return void report(0);
    let scanned = 0;
    let truncated = false;
    try {
      // A glob relative to the walk's start (glob) or to the root (grep's filter) whose literal prefix names a folder under it.
      const folder = glob === undefined ? [] : matchFolder(glob, start, globBase === start ? 'start' : 'root');
      for await (const rel of walkFiles(this.fs, start, request.signal, folder)) {
        if (cap !== undefined && scanned >= cap.maxObjects) {
          truncated = true;
          break;
        }
        scanned++;
        if (glob) {
          const local = globBase === '' ? rel : rel.slice(globBase.length + 1);
          if (!globMatches(glob, local, false)) continue;
        }
        yield rel;
      }
    } finally {
      if (cap !== undefined) request.onScan?.({ backend: cap.backend, scanned, limit: cap.maxObjects, truncated });
    }
  }

  /**
   * The matching lines of a file (binary files have none), found a slice of lines at a time so a
   * file larger than the biggest string still searches.
   */
  private async matches(
    path: string,
    signal: AbortSignal | undefined,
    matcher: LineMatcher,
  ): Promise<{ line: number; text: string }[]> {
    throwIfAborted(signal, 'grep');
    const bytes = await this.fs.readFile(path, { signal });
    const out: { line: number; text: string }[] = [];
    // A UTF-16 or CR-only file is searched in the lines read shows.
    const view = viewOf(bytes);
    if (view !== undefined) {
      for (const i of matcher.matching(view, path)) out.push({ line: i + 1, text: view[i]! });
      return out;
    }
    if (bytes.includes(0)) return []; // binary files are skipped, as rg skips them
    for (const slice of lineSlices(bytes)) {
      // A CRLF line is matched as ending before its \r (as ripgrep's --crlf reads it), and reported whole.
      const text = slice.text.includes('\r') ? slice.text.replace(/\r(\n|$)/g, '$1') : slice.text;
      if (!matcher.mayMatch(text)) continue;
      const raw = slice.text.split('\n');
      const lines = text === slice.text ? raw : text.split('\n');
      for (const i of matcher.matching(lines, path)) out.push({ line: slice.firstLine + i, text: raw[i]! });
    }
    return out;
  }

  private grepTargets(request: WorkspaceGrepRequest): AsyncGenerator<string> {
    const glob = request.glob === undefined ? undefined : compileGlob(request.glob, 'glob');
    return skipUnopenable(this.targets(request, glob, ''));
  }

  async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
    const matcher = compileMatcher(request);
    const withText = request.withText !== false;
    for await (const path of this.grepTargets(request)) {
      for (const m of await this.matches(path, request.signal, matcher))
        yield withText ? { path, line: m.line, text: m.text } : { path, line: m.line };
    }
  }

  async grepPage(request: WorkspaceGrepRequest, after: GrepPosition | undefined, limit: number): Promise<GrepPage> {
    const matches: WorkspaceGrepMatch[] = [];
    for await (const m of this.grep({ ...request, withText: true })) {
      if (after) {
        const c = comparePaths(m.path, after.path);
        if (c < 0 || (c === 0 && m.line <= after.line)) continue;
      }
      if (matches.length === limit) return { matches, more: true };
      matches.push(m);
    }
    return { matches, more: false };
  }

  async grepFiles(request: WorkspaceGrepRequest): Promise<string[]> {
    const matcher = compileMatcher(request);
    const out: string[] = [];
    for await (const path of this.grepTargets(request)) {
      if ((await this.matches(path, request.signal, matcher)).length > 0) out.push(path);
    }
    return out;
  }

  async grepCounts(request: WorkspaceGrepRequest): Promise<GrepFileCount[]> {
    const matcher = compileMatcher(request);
    const out: GrepFileCount[] = [];
    for await (const path of this.grepTargets(request)) {
      const count = (await this.matches(path, request.signal, matcher)).length;
      if (count > 0) out.push({ path, count });
    }
    return out;
  }

  async listFiles(request: WorkspaceGlobRequest): Promise<string[]> {
    const start = normalizeWorkspacePath(request.path ?? '', { root: this.root, field: 'path' });
    const glob = compileGlob(request.pattern, 'pattern');
    const out: string[] = [];
    for await (const rel of this.targets({ ...request, path: start }, glob, start)) out.push(rel);
    return out;
  }

  async *glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
    const files = await this.listFiles(request);
    const stamped = await Promise.all(
      files.map(async (path) => ({
        path,
        mtime: hasUnopenableName(path) ? 0 : ((await this.fs.stat(path))?.mtimeMs ?? 0),
      })),
    );
    stamped.sort((a, b) => b.mtime - a.mtime || comparePaths(a.path, b.path));
    for (const s of stamped) yield s.path;
  }
}
