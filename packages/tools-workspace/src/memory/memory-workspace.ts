/**
 * `MemoryWorkspace`: a workspace held in memory with the file capabilities only (`fs.read`,
 * `fs.write`, `fs.list`, `search`): no `exec`, no `git`. Search uses the JS engine.
 */
import type { WorkspaceServiceCapability, WorkspaceServices } from '@a3s-code/core';
import { checkWorkspaceOptions } from '../errors.js';
import { displayRoot, fileOnlyCapabilities } from '../paths/display-root.js';
import { JsSearch } from '../search/js-search.js';
import { MemoryFileSystem } from './memory-fs.js';

/** Options of {@link MemoryWorkspace}. */
export interface MemoryWorkspaceOptions {
  /** Display root, an absolute POSIX path; absolute tool paths under it are accepted. Default `/workspace`. */
  readonly root?: string;
  /** Initial files: relative path to content. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Clock for modification times, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

const OPTION_KEYS: readonly string[] = ['root', 'files', 'now'];

/** An in-memory workspace (file tools only); an unknown option key throws `WORKSPACE_CONFIGURATION`. */
export class MemoryWorkspace implements WorkspaceServices {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_MemoryWorkspace`; people read `MemoryWorkspace`.
    Object.defineProperty(this, 'name', { value: 'MemoryWorkspace' });
  }
  readonly root: string;
  readonly capabilities: ReadonlySet<WorkspaceServiceCapability> = fileOnlyCapabilities();
  readonly fs: MemoryFileSystem;
  readonly search: JsSearch;

  /** Use {@link MemoryWorkspace.create} to start with files. */
  constructor(options: MemoryWorkspaceOptions = {}) {
    checkWorkspaceOptions(options, OPTION_KEYS, 'MemoryWorkspace', "{ files: { 'a.txt': 'hello' } }");
    this.root = displayRoot(options.root);
    this.fs = new MemoryFileSystem(this.root, options.now ?? Date.now);
    this.search = new JsSearch(this.fs, this.root);
  }

  /** A workspace holding `options.files`. */
  static async create(options: MemoryWorkspaceOptions = {}): Promise<MemoryWorkspace> {
    const ws = new MemoryWorkspace(options);
    for (const [path, content] of Object.entries(options.files ?? {})) await ws.fs.writeFile(path, content);
    return ws;
  }
}
