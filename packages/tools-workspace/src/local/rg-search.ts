/**
 * The ripgrep engine of {@link LocalWorkspace}: `grep` and `glob` run the `rg` binary with the
 * flags that make it select exactly the files the JS engine selects (hidden files included,
 * `.git` skipped, only `.gitignore` rules honoured, in or out of a Git repository, symlinks not
 * followed). Paths come back root-relative and sorted in {@link comparePaths} order.
 */
import type { WorkspaceGlobRequest, WorkspaceGrepMatch, WorkspaceGrepRequest } from '@a3s-code/core';
import { excludeArgs } from './rg-excludes.js';
import { compileGlob, globMatches } from '../search/glob-pattern.js';
import { matchFolder, pathParts } from '../search/glob-prefix.js';
import { assertNoNul } from '../search/js-regex.js';
import { comparePaths, sortPaths } from '../search/path-order.js';
import type { FastWorkspaceSearch, GrepFileCount, GrepPage, GrepPosition } from '../search/search-types.js';
import { MatchingFilesCache, type MatchingList, onePage, pageFromFiles } from './rg-page.js';
import {
  crOnlyCounts,
  crOnlyLookup,
  matchesIn,
  mayBeCrOnlyBytes,
  readViewOf,
  type ReadViewMatches,
} from './rg-special.js';
import { wholeSearch } from './rg-whole.js';
import { BASE_ARGS, pruneArgs, stripDot } from './rg-args.js';
import type { LocalFileSystem } from './local-fs.js';
import { readRecord, runRg, splitRecords, streamRgRecords } from './rg-process.js';
import { openTargetFile, resolveTarget, stdinArgs, type Target } from './rg-target.js';
import { hasUnopenableName, nameFromBytes } from '../paths/byte-names.js';

/** Search on the local disk through ripgrep. */
export class RipgrepSearch implements FastWorkspaceSearch {
  readonly engine = 'ripgrep' as const;
  private readonly fs: LocalFileSystem;
  private readonly rg: string;
  private readonly pages = new MatchingFilesCache();
  constructor(fs: LocalFileSystem, rg: string) {
    this.fs = fs;
    this.rg = rg;
  }

  /**
   * A glob filter. rg's `--glob` whitelists *directories* it matches even when `.gitignore`
   * excludes them, so an anchored glob is also checked against the non-ignored file list; a
   * name-only glob becomes a file type (`-t`), which matches file names only and never
   * overrides ignore rules. Folders beside an anchored glob's literal prefix are left out of both walks.
   */
  private async globFilter(
    request: WorkspaceGrepRequest,
    { rel, args: where, at }: Target,
  ): Promise<{ args: string[]; allowed?: Set<string> }> {
    if (request.glob === undefined) return { args: [] };
    const glob = compileGlob(request.glob, 'glob'); // same validation and error as the JS engine
    if (!glob.anchored) return { args: ['--type-add', `a3sglob:${request.glob}`, '-t', 'a3sglob'] };
    const prune = pruneArgs(matchFolder(glob, rel, 'root'), pathParts(rel).length);
    const out = await runRg(
      this.rg,
      [...BASE_ARGS, '--files', '--null', ...prune, ...excludeArgs(rel), ...where],
      at,
      request.signal,
      'glob',
    );
    const allowed = new Set(
      splitRecords(out, 0)
        .map(stripDot)
        .filter((p) => globMatches(glob, p, false)),
    );
    return { args: ['--glob', request.glob, ...prune], allowed };
  }

  /**
   * rg's flags for a grep request (`where` resolved once by the caller); `select` are the
   * file-selection flags alone.
   */
  private async grepArgs(
    request: WorkspaceGrepRequest,
    where: Target,
  ): Promise<{ args: string[]; select: string[]; match: string[]; allowed?: Set<string> }> {
    assertNoNul(request.pattern, 'pattern');
    const args = [...BASE_ARGS];
    if (request.caseInsensitive) args.push('-i');
    if (request.fixedStrings) args.push('-F');
    // A CRLF line ends before its \r, as the JavaScript engine reads it: `;$` finds `x;\r\n`.
    args.push('--crlf');
    const match = [...args, '-e', request.pattern];
    const filter = await this.globFilter(request, where);
    const select = [...BASE_ARGS, ...filter.args, ...excludeArgs(where.rel)];
    args.push(...filter.args, ...excludeArgs(where.rel), '-e', request.pattern);
    return filter.allowed ? { args, select, match, allowed: filter.allowed } : { args, select, match };
  }

  /**
   * A one-file target rg cannot split into read's lines (UTF-16, CR-only), searched here. A tree
   * search does not walk for such files (a second walk: 1.6x rg per call): a CR-only file shows
   * as a first line holding a CR, and is searched in read's lines then (`crOnlyLookup`).
   */
  private async readView(
    request: WorkspaceGrepRequest,
    target: Target,
    flags: { readonly select: readonly string[]; readonly match: readonly string[]; readonly allowed?: Set<string> },
  ): Promise<ReadViewMatches> {
    const { match } = flags;
    if (target.file) {
      const lines = await readViewOf(this.fs.root, target.rel);
      if (lines === undefined) return new Map();
      return matchesIn(this.rg, match, this.fs.root, request.signal, [{ path: target.rel, lines }]);
    }
    return new Map();
  }

  async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
    const target = await resolveTarget(this.fs, request.path);
    try {
      yield* this.grepIn(request, target);
    } finally {
      await target.close();
    }
  }

  private async *grepIn(request: WorkspaceGrepRequest, target: Target): AsyncIterable<WorkspaceGrepMatch> {
    const where = target.args;
    const flags = await this.grepArgs(request, target);
    const { args: grep, allowed } = flags;
    // Files searched in read's lines: found while rg runs, then merged into its path order.
    const found = this.readView(request, target, flags);
    found.catch(() => undefined); // awaited below; a consumer that stops early leaves it unawaited
    if (target.file) {
      const one = await found;
      if (one.has(target.rel)) {
        yield* one.get(target.rel)!;
        return;
      }
    }
    let special: ReadViewMatches | undefined;
    let pending: [string, readonly WorkspaceGrepMatch[]][] = [];
    const ready = async (): Promise<ReadViewMatches> => {
      special = await found;
      pending = [...special].filter(([, m]) => m.length > 0);
      return special;
    };
    const withText = request.withText !== false;
    const crOnly = crOnlyLookup(this.rg, flags.match, this.fs.root, request.signal);
    const shown = (m: WorkspaceGrepMatch): WorkspaceGrepMatch => (withText ? m : { path: m.path, line: m.line });
    const input = await openTargetFile(this.fs.root, target, request.reached);
    const args = [
      ...grep,
      '--sort',
      'path',
      '--null',
      '--line-number',
      '--with-filename',
      '--no-heading',
      ...(input ? stdinArgs(target) : where),
    ];
    try {
      for await (const rec of streamRgRecords(this.rg, args, target.at, request.signal, input?.fd)) {
        const nul = rec.indexOf(0);
        const colon = rec.indexOf(58, nul + 1);
        if (nul < 0 || colon < 0) continue;
        const path = input ? target.rel : stripDot(nameFromBytes(rec, 0, nul));
        const skip = special ?? (await ready());
        if ((allowed && !allowed.has(path)) || skip.has(path) || hasUnopenableName(path)) continue;
        while (pending.length > 0 && comparePaths(pending[0]![0], path) < 0) yield* pending.shift()![1].map(shown);
        const line = Number(rec.toString('latin1', nul + 1, colon));
        // Checked on the bytes: a search without text (summary, counts) decodes no line for it.
        const split = mayBeCrOnlyBytes(line, rec, colon + 1, rec.length) ? await crOnly(path) : undefined;
        if (split !== undefined) yield* split.map(shown);
        else yield withText ? { path, line, text: rec.toString('utf8', colon + 1) } : { path, line };
      }
      if (special === undefined) await ready();
      for (const [, matches] of pending) yield* matches.map(shown);
    } finally {
      await input?.close();
    }
  }

  async grepPage(request: WorkspaceGrepRequest, after: GrepPosition | undefined, limit: number): Promise<GrepPage> {
    const key = JSON.stringify([
      request.pattern,
      request.path ?? '',
      request.glob ?? '',
      request.caseInsensitive === true,
      request.fixedStrings === true,
    ]);
    return this.on(request.path, (target) => this.pageIn(request, after, limit, key, target));
  }

  private async pageIn(
    request: WorkspaceGrepRequest,
    after: GrepPosition | undefined,
    limit: number,
    key: string,
    target: Target,
  ): Promise<GrepPage> {
    if (target.file) return onePage(this.grepIn({ ...request, withText: true }, target), after, limit);
    let known: ReadViewMatches | undefined;
    if (after === undefined) {
      // A first page: one rg process finds every matching line when the output is small.
      const flags = await this.grepArgs(request, target);
      const { args, allowed } = flags;
      if (!allowed) {
        const [special, whole] = await Promise.all([
          this.readView(request, target, flags),
          wholeSearch(this.rg, args, target.args, target.at, request.signal, limit),
        ]);
        if (whole && special.size === 0) {
          this.pages.put(key, { files: whole.files, special });
          return whole.page;
        }
        known = special;
      }
    }
    const list = await this.pages.get(key, after !== undefined, () => this.matchingList(request, target, known));
    const { args, match } = await this.grepArgs({ ...request, glob: undefined }, target);
    const crOnly = crOnlyLookup(this.rg, match, this.fs.root, request.signal);
    return pageFromFiles(this.rg, args, target.at, request.signal, list, after, limit, crOnly);
  }

  async grepFiles(request: WorkspaceGrepRequest): Promise<string[]> {
    return this.on(request.path, async (target) => [...(await this.matchingList(request, target)).files]);
  }

  /** Runs `fn` on the resolved target of `path`, closed after. */
  private async on<T>(path: string | undefined, fn: (target: Target) => Promise<T>): Promise<T> {
    const target = await resolveTarget(this.fs, path);
    try {
      return await fn(target);
    } finally {
      await target.close();
    }
  }

  /** The sorted files with a match, and the files searched in read's lines with their matches. */
  private async matchingList(
    request: WorkspaceGrepRequest,
    target: Target,
    known?: ReadViewMatches,
  ): Promise<MatchingList> {
    const where = target.args;
    const flags = await this.grepArgs(request, target);
    const { args, allowed } = flags;
    const [special, out] = await Promise.all([
      known ?? this.readView(request, target, flags),
      this.runOn(target, request.signal, [...args, '--files-with-matches', '--null'], where),
    ]);
    const paths = splitRecords(out, 0)
      .map((p) => (target.file ? target.rel : stripDot(p)))
      .filter((p) => (!allowed || allowed.has(p)) && !special.has(p) && !hasUnopenableName(p));
    for (const [path, matches] of special) if (matches.length > 0) paths.push(path);
    return { files: sortPaths(paths), special };
  }

  async grepCounts(request: WorkspaceGrepRequest): Promise<GrepFileCount[]> {
    return this.on(request.path, (target) => this.countsIn(request, target));
  }

  private async countsIn(request: WorkspaceGrepRequest, target: Target): Promise<GrepFileCount[]> {
    const where = target.args;
    const flags = await this.grepArgs(request, target);
    const { args, allowed } = flags;
    const [special, out] = await Promise.all([
      this.readView(request, target, flags),
      this.runOn(target, request.signal, [...args, '--count', '--null', '--with-filename'], where),
    ]);
    const counts: GrepFileCount[] = [];
    for (const [path, matches] of special) if (matches.length > 0) counts.push({ path, count: matches.length });
    let from = 0;
    for (let rec = readRecord(out, 0); rec !== undefined; rec = readRecord(out, from)) {
      const named = rec.kind === 'record' && rec.nul > from ? stripDot(nameFromBytes(out, from, rec.nul)) : undefined;
      const path = named !== undefined && target.file ? target.rel : named;
      if (
        rec.kind === 'record' &&
        path !== undefined &&
        (!allowed || allowed.has(path)) &&
        !special.has(path) &&
        !hasUnopenableName(path)
      )
        counts.push({ path, count: Number(out.toString('latin1', rec.nul + 1, rec.end)) });
      from = rec.end + 1;
    }
    counts.sort((a, b) => comparePaths(a.path, b.path));
    return target.file
      ? counts
      : crOnlyCounts(counts, crOnlyLookup(this.rg, flags.match, this.fs.root, request.signal));
  }

  /** Runs a content search of `target` to completion (a one-file target read on stdin). */
  private async runOn(
    target: Target,
    signal: AbortSignal | undefined,
    args: string[],
    where: string[],
  ): Promise<Buffer> {
    const input = await openTargetFile(this.fs.root, target);
    try {
      return await runRg(
        this.rg,
        [...args, ...(input ? stdinArgs(target) : where)],
        target.at,
        signal,
        'pattern',
        input?.fd,
      );
    } finally {
      await input?.close();
    }
  }

  /**
   * `rg --files` lists the non-ignored files; the glob is applied here, relative to `path`,
   * with the same matcher as the JS engine (rg's own `--glob` would re-include ignored folders).
   * The walk leaves out the folders beside the pattern's literal prefix (`src/` of `src/**\/*.ts`).
   */
  private async files(request: WorkspaceGlobRequest, extra: readonly string[]): Promise<string[]> {
    const glob = compileGlob(request.pattern, 'pattern');
    return this.on(request.path, (target) => this.filesIn(request, extra, glob, target));
  }

  private async filesIn(
    request: WorkspaceGlobRequest,
    extra: readonly string[],
    glob: ReturnType<typeof compileGlob>,
    { rel, args: where, at }: Target,
  ): Promise<string[]> {
    // A name-only pattern (or `**/name`) also becomes a file type, so rg lists (and, for
    // recency, stats) only candidate files; types never re-include ignored folders.
    const name = glob.anchored ? /^\*\*\/([^/]+)$/.exec(request.pattern)?.[1] : request.pattern;
    const typeArgs = name === undefined || name.endsWith('/') ? [] : ['--type-add', `a3sglob:${name}`, '-t', 'a3sglob'];
    const prune = pruneArgs(matchFolder(glob, rel, 'start'), pathParts(rel).length);
    const out = await runRg(
      this.rg,
      [...BASE_ARGS, '--files', '--null', ...typeArgs, ...extra, ...prune, ...excludeArgs(rel), ...where],
      at,
      request.signal,
      'pattern',
    );
    const all = splitRecords(out, 0).map(stripDot);
    const cut = rel === '' ? 0 : rel.length + 1;
    return all.filter((p) => globMatches(glob, p.slice(cut), false));
  }

  async listFiles(request: WorkspaceGlobRequest): Promise<string[]> {
    return this.files(request, []);
  }

  async *glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
    yield* await this.files(request, ['--sortr', 'modified']);
  }
}
