/**
 * The ripgrep engine of {@link LocalWorkspace}: `grep` and `glob` run the `rg` binary with the
 * flags that make it select exactly the files the JS engine selects (hidden files included,
 * `.git` skipped, only `.gitignore` rules honoured, in or out of a Git repository, symlinks not
 * followed). Paths come back root-relative and sorted in {@link comparePaths} order.
 */
import type { WorkspaceGlobRequest, WorkspaceGrepMatch, WorkspaceGrepRequest } from '@a3s-code/core';
import { WorkspaceSearchError } from '../errors.js';
import { compileGlob } from '../search/glob-pattern.js';
import { comparePaths, sortPaths } from '../search/path-order.js';
import type { FastWorkspaceSearch, GrepFileCount } from '../search/search-types.js';
import type { LocalFileSystem } from './local-fs.js';
import { runRg, splitRecords, streamRgLines } from './rg-process.js';

const BASE_ARGS = [
  '--no-config',
  '--hidden',
  '--no-ignore-parent',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-require-git',
  '--no-messages',
  '--color',
  'never',
];

function stripDot(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}

function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}!]/g, '\\$&');
}

/** Search on the local disk through ripgrep. */
export class RipgrepSearch implements FastWorkspaceSearch {
  readonly engine = 'ripgrep' as const;
  private readonly fs: LocalFileSystem;
  private readonly rg: string;
  constructor(fs: LocalFileSystem, rg: string) {
    this.fs = fs;
    this.rg = rg;
  }

  /** The search target and the `--ignore-file` flags for `.gitignore`s above it. */
  private async target(path: string | undefined): Promise<{ rel: string; args: string[] }> {
    const target = await this.fs.resolve(path ?? '', 'path');
    const args: string[] = [];
    if (target.rel !== '') {
      const parts = target.rel.split('/');
      for (let i = 0; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        const file = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
        if ((await this.fs.stat(file).catch(() => undefined))?.kind === 'file') args.push('--ignore-file', `${this.fs.root}/${file}`);
      }
    }
    args.push('--', target.rel === '' ? '.' : target.rel);
    return { rel: target.rel, args };
  }

  private grepArgs(request: WorkspaceGrepRequest): string[] {
    const args = [...BASE_ARGS];
    if (request.caseInsensitive) args.push('-i');
    if (request.fixedStrings) args.push('-F');
    if (request.glob !== undefined) {
      compileGlob(request.glob, 'glob'); // same validation and error as the JS engine
      args.push('--glob', request.glob);
    }
    args.push('--glob', '!.git', '-e', request.pattern);
    return args;
  }

  async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
    const { args: where } = await this.target(request.path);
    const args = [...this.grepArgs(request), '--sort', 'path', '--null', '--line-number', '--with-filename', '--no-heading', ...where];
    const withText = request.withText !== false;
    for await (const rec of streamRgLines(this.rg, args, this.fs.root, request.signal)) {
      const nul = rec.indexOf(0);
      const colon = rec.indexOf(58, nul + 1);
      if (nul < 0 || colon < 0) continue;
      const path = stripDot(rec.toString('utf8', 0, nul));
      const line = Number(rec.toString('latin1', nul + 1, colon));
      yield withText ? { path, line, text: rec.toString('utf8', colon + 1) } : { path, line };
    }
  }

  async grepFiles(request: WorkspaceGrepRequest): Promise<string[]> {
    const { args: where } = await this.target(request.path);
    const out = await runRg(this.rg, [...this.grepArgs(request), '--files-with-matches', '--null', ...where], this.fs.root, request.signal);
    return sortPaths(splitRecords(out, 0).map(stripDot));
  }

  async grepCounts(request: WorkspaceGrepRequest): Promise<GrepFileCount[]> {
    const { args: where } = await this.target(request.path);
    const out = await runRg(this.rg, [...this.grepArgs(request), '--count', '--null', '--with-filename', ...where], this.fs.root, request.signal);
    const counts: GrepFileCount[] = [];
    for (const rec of splitRecords(out, 10)) {
      const nul = rec.indexOf('\0');
      if (nul > 0) counts.push({ path: stripDot(rec.slice(0, nul)), count: Number(rec.slice(nul + 1)) });
    }
    return counts.sort((a, b) => comparePaths(a.path, b.path));
  }

  private async fileArgs(request: WorkspaceGlobRequest): Promise<string[]> {
    const { rel, args: where } = await this.target(request.path);
    const glob = compileGlob(request.pattern, 'pattern');
    let pattern = request.pattern.startsWith('/') ? request.pattern.slice(1) : request.pattern;
    if (glob.anchored && rel !== '') pattern = `${escapeGlob(rel)}/${pattern}`;
    if (pattern === '') throw new WorkspaceSearchError('pattern', 'is empty; allowed: a glob such as **/*.ts');
    return [...BASE_ARGS, '--files', '--null', '--glob', pattern, '--glob', '!.git', ...where];
  }

  async listFiles(request: WorkspaceGlobRequest): Promise<string[]> {
    const out = await runRg(this.rg, await this.fileArgs(request), this.fs.root, request.signal, 'pattern');
    return splitRecords(out, 0).map(stripDot);
  }

  async *glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
    const args = await this.fileArgs(request);
    const out = await runRg(this.rg, ['--sortr', 'modified', ...args], this.fs.root, request.signal, 'pattern');
    yield* splitRecords(out, 0).map(stripDot);
  }
}
