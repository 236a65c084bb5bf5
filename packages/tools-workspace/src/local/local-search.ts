/**
 * The `search` service of {@link LocalWorkspace}: ripgrep when a binary is found (resolved
 * lazily, once), otherwise the JS engine over the local file system. `engine: 'js'` forces the
 * JS engine (tests compare the two on one tree).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { findHostOutputs, type HostOutputFile, isHostOutputNow } from '@a3s-code/core';
import type { WorkspaceGlobRequest, WorkspaceGrepMatch, WorkspaceGrepRequest } from '@a3s-code/core';
import { JsSearch } from '../search/js-search.js';
import type { FastWorkspaceSearch, GrepFileCount, GrepPage, GrepPosition } from '../search/search-types.js';
import { FileListing } from './file-listing.js';
import type { LocalFileSystem } from './local-fs.js';
import { findRipgrep } from './rg-binary.js';
import { RipgrepSearch } from './rg-search.js';

/** The text of the regular file at `path`, or `undefined` when there is none. */
function textOrNone(path: string): string | undefined {
  try {
    return lstatSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Which engine a {@link LocalWorkspace} searches with. */
export type LocalSearchEngine = 'auto' | 'ripgrep' | 'js';

/** Delegates to ripgrep or the JS engine. */
export class LocalSearch implements FastWorkspaceSearch {
  private readonly fs: LocalFileSystem;
  private readonly choice: LocalSearchEngine;
  private resolved: Promise<FastWorkspaceSearch> | undefined;
  /** The engine in use once the first search has run (`js` until then when forced). */
  engine: 'ripgrep' | 'js';

  constructor(fs: LocalFileSystem, engine: LocalSearchEngine) {
    this.fs = fs;
    this.choice = engine;
    this.engine = engine === 'ripgrep' ? 'ripgrep' : 'js';
    // Made with the workspace: the `.gitignore` rules of this moment are the ones that hide files from the change snapshots.
    this.#listing = new FileListing(this.fs.root);
    this.ignoreBaseline = {
      openedAtMs: this.#listing.openedAtMs,
      texts: new Map([
        ['.gitignore', this.#listing.rootIgnoreText],
        ['.git/info/exclude', textOrNone(`${this.fs.root}/.git/info/exclude`)],
      ]),
    };
  }

  /**
   * The workspace's ignore files as it was opened: ignore files changed since hide nothing from
   * the change snapshot taken through git (see `gitDirtySnapshot` in core).
   */
  readonly ignoreBaseline: { readonly openedAtMs: number; readonly texts: ReadonlyMap<string, string | undefined> };

  #outputs: readonly HostOutputFile[] | undefined;

  /**
   * The workspace paths of the host's own output files (its stdout or stderr redirected into the
   * workspace, found on the first call: by the descriptors the host and its pipe's reader hold,
   * which no tool call changes) that are, now, still only that: left out of the change snapshots
   * of commands (see `findHostOutputs` in core).
   */
  unrecorded(): string[] {
    this.#outputs ??= findHostOutputs(this.fs.root);
    return this.#outputs.filter((f) => isHostOutputNow(f)).map((f) => f.path);
  }

  /** The engine that serves calls, resolving the ripgrep binary on first use. */
  backend(): Promise<FastWorkspaceSearch> {
    this.resolved ??= (async () => {
      if (this.choice !== 'js') {
        const rg = await findRipgrep();
        if (rg) {
          this.engine = 'ripgrep';
          return new RipgrepSearch(this.fs, rg);
        }
        if (this.choice === 'ripgrep') throw new Error('ripgrep was requested but no rg binary was found');
      }
      this.engine = 'js';
      return new JsSearch(this.fs, this.fs.root);
    })();
    return this.resolved;
  }

  async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
    yield* (await this.backend()).grep(request);
  }
  async *glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
    yield* (await this.backend()).glob(request);
  }
  async grepPage(request: WorkspaceGrepRequest, after: GrepPosition | undefined, limit: number): Promise<GrepPage> {
    return (await this.backend()).grepPage(request, after, limit);
  }
  async grepFiles(request: WorkspaceGrepRequest): Promise<string[]> {
    return (await this.backend()).grepFiles(request);
  }
  async grepCounts(request: WorkspaceGrepRequest): Promise<GrepFileCount[]> {
    return (await this.backend()).grepCounts(request);
  }
  async listFiles(request: WorkspaceGlobRequest): Promise<string[]> {
    return (await this.backend()).listFiles(request);
  }

  readonly #listing: FileListing;
  /**
   * Every file the engines list (in no set order), for the change snapshot taken around a
   * command: remembered between calls, so a later listing reads again only the folders that
   * changed. `undefined` when there are more than `maxFiles`.
   */
  listAllFiles(maxFiles: number, signal?: AbortSignal): Promise<string[] | undefined> {
    return this.#listing.list(maxFiles, signal);
  }
}
