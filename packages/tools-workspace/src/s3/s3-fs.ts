/**
 * `WorkspaceFileSystem` over an S3 bucket (optionally under a key prefix). A file is an object
 * whose key is the prefix plus the workspace-relative path. S3 has no folders: a folder exists
 * while some key lies under it (`a/b.txt` makes `a` a folder), or while an empty marker object
 * `a/` exists (what S3 consoles create); removing a folder removes its marker. Paths are
 * normalised and checked as on disk (no `..` out, no NUL, not `.a3s`/`.git` for writes); a key
 * longer than S3's 1,024 bytes is refused by name. Sizes and times a listing saw are reused by
 * `stat` for a few seconds (a `glob` asks one `stat` per file), and every write or removal
 * through this object updates them. A write of a file this workspace read or wrote before is
 * conditional on the version it saw, so another writer's change in between fails the write
 * (`WORKSPACE_STORE`, store code `PreconditionFailed`) instead of being lost.
 */
import type {
  WorkspaceCallOptions,
  WorkspaceDirEntry,
  WorkspaceFileSystem,
  WorkspaceStat,
  WorkspaceWriteOptions,
} from '@a3s-code/core';
import { WorkspaceFileError, WorkspacePathError } from '../errors.js';
import { throwIfAborted } from '../local/fs-errors.js';
import { assertWritable, normalizeWorkspacePath, parentRel } from '../paths/normalize.js';
import type { S3Client } from './s3-client.js';

/** S3's largest key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;
/** How long a listing's size and time of a file stand in for a HeadObject, ms. */
const STAT_TTL_MS = 5_000;
/** Most file versions remembered for conditional writes (the oldest are forgotten first). */
const MAX_VERSIONS = 10_000;

const encoder = new TextEncoder();

/** The files of an S3 workspace. */
export class S3FileSystem implements WorkspaceFileSystem {
  readonly #client: S3Client;
  readonly #root: string;
  readonly #base: string;
  readonly #pageSize: number | undefined;
  readonly #seen = new Map<string, { size: number; mtimeMs: number; at: number }>();
  /**
   * The version of each file as this workspace last read or wrote it (its entity tag; `null`: it
   * did not exist): the next write of it replaces only that version (`If-Match`, or
   * `If-None-Match: *`), so a change another writer made in between is never overwritten unseen.
   */
  readonly #versions = new Map<string, string | null>();

  /** `base` is the key prefix ('' or ending with `/`); `pageSize` the listing page size (default the store's). */
  constructor(client: S3Client, root: string, base: string, pageSize?: number) {
    this.#client = client;
    this.#root = root;
    this.#base = base;
    this.#pageSize = pageSize;
  }

  #rel(path: string): string {
    const rel = normalizeWorkspacePath(path, { root: this.#root, field: 'path' });
    if (Buffer.byteLength(this.#base + rel, 'utf8') + 1 > MAX_KEY_BYTES) {
      throw new WorkspacePathError('path', path, 'too_long', `makes an S3 key over ${MAX_KEY_BYTES} bytes`);
    }
    return rel;
  }

  #key(rel: string): string {
    return this.#base + rel;
  }

  /** The key prefix of a folder's contents. */
  #folderPrefix(rel: string): string {
    return rel === '' ? this.#base : `${this.#base}${rel}/`;
  }

  /** Whether any key lies under the folder `rel` (its marker included). */
  async #isFolder(rel: string, signal?: AbortSignal): Promise<boolean> {
    if (rel === '') return true;
    const page = await this.#client.listPage(this.#folderPrefix(rel), { maxKeys: 1, signal });
    return page.objects.length > 0;
  }

  async readFile(path: string, options?: WorkspaceCallOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal, `read ${path}`);
    const rel = this.#rel(path);
    if (rel === '') throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file');
    const got = await this.#client.getVersioned(this.#key(rel), options?.signal);
    if (got !== undefined) {
      this.#version(rel, got.etag);
      return got.bytes;
    }
    if (await this.#isFolder(rel, options?.signal)) {
      throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file');
    }
    this.#version(rel, null);
    throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
  }

  async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    throwIfAborted(options?.signal, `stat ${path}`);
    const rel = this.#rel(path);
    if (rel === '') return { kind: 'directory', size: 0, mtimeMs: 0 };
    const seen = this.#seen.get(rel);
    if (seen !== undefined && Date.now() - seen.at < STAT_TTL_MS) {
      return { kind: 'file', size: seen.size, mtimeMs: seen.mtimeMs };
    }
    const head = await this.#client.headObject(this.#key(rel), options?.signal);
    if (head !== undefined) return { kind: 'file', size: head.size, mtimeMs: head.lastModified };
    return (await this.#isFolder(rel, options?.signal)) ? { kind: 'directory', size: 0, mtimeMs: 0 } : undefined;
  }

  async writeFile(path: string, data: string | Uint8Array, options?: WorkspaceWriteOptions): Promise<void> {
    throwIfAborted(options?.signal, `write ${path}`);
    const rel = this.#rel(path);
    assertWritable(rel, 'path', path);
    if (await this.#isFolder(rel, options?.signal)) {
      throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file');
    }
    const parents: string[] = [];
    for (let dir = parentRel(rel); dir !== ''; dir = parentRel(dir)) parents.push(dir);
    const heads = await Promise.all(parents.map((p) => this.#client.headObject(this.#key(p), options?.signal)));
    const fileParent = parents.find((_, i) => heads[i] !== undefined);
    if (fileParent !== undefined) {
      throw new WorkspaceFileError(rel, 'not_directory', `a parent of this path (${fileParent}) is a file`);
    }
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    const known = this.#versions.get(rel);
    const condition =
      known === undefined ? undefined : known === null ? { ifNoneMatch: '*' as const } : { ifMatch: known };
    let etag: string | undefined;
    try {
      etag = await this.#client.putObject(this.#key(rel), bytes, options?.signal, condition);
    } catch (e) {
      // Refused because another writer changed it: the next read learns its version again.
      this.#versions.delete(rel);
      throw e;
    }
    this.#version(rel, etag);
    this.#seen.set(rel, { size: bytes.byteLength, mtimeMs: Date.now(), at: Date.now() });
  }

  // Remembers a file's version (`undefined`: unknown, so the next write is unconditional).
  #version(rel: string, etag: string | null | undefined): void {
    this.#versions.delete(rel);
    if (etag === undefined) return;
    this.#versions.set(rel, etag);
    if (this.#versions.size > MAX_VERSIONS) this.#versions.delete(this.#versions.keys().next().value as string);
  }

  async remove(path: string, options?: WorkspaceCallOptions): Promise<void> {
    throwIfAborted(options?.signal, `remove ${path}`);
    const rel = this.#rel(path);
    assertWritable(rel, 'path', path);
    this.#seen.delete(rel);
    this.#versions.delete(rel);
    if ((await this.#client.headObject(this.#key(rel), options?.signal)) !== undefined) {
      await this.#client.deleteObject(this.#key(rel), options?.signal);
      return;
    }
    const marker = this.#folderPrefix(rel);
    const page = await this.#client.listPage(marker, { maxKeys: 2, signal: options?.signal });
    if (page.objects.length === 0) throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
    if (page.objects.some((o) => o.key !== marker)) {
      throw new WorkspaceFileError(rel, 'not_empty', 'the directory is not empty');
    }
    await this.#client.deleteObject(marker, options?.signal);
  }

  async list(path: string, options?: WorkspaceCallOptions): Promise<readonly WorkspaceDirEntry[]> {
    throwIfAborted(options?.signal, `list ${path}`);
    const rel = this.#rel(path);
    const prefix = this.#folderPrefix(rel);
    const names = new Map<string, WorkspaceDirEntry['kind']>();
    let any = false;
    let token: string | undefined;
    const now = Date.now();
    do {
      throwIfAborted(options?.signal, `list ${path}`);
      const page = await this.#client.listPage(prefix, {
        delimiter: '/',
        ...(token === undefined ? {} : { token }),
        ...(this.#pageSize === undefined ? {} : { maxKeys: this.#pageSize }),
        ...(options?.signal ? { signal: options.signal } : {}),
      });
      for (const o of page.objects) {
        any = true;
        const name = o.key.slice(prefix.length);
        if (name === '' || name === '.' || name === '..') continue; // the marker; names no path can hold
        names.set(name, 'file');
        this.#seen.set(rel === '' ? name : `${rel}/${name}`, { size: o.size, mtimeMs: o.lastModified, at: now });
      }
      for (const p of page.prefixes) {
        any = true;
        const name = p.slice(prefix.length, -1);
        if (name !== '' && name !== '.' && name !== '..' && !names.has(name)) names.set(name, 'directory');
      }
      token = page.nextToken;
    } while (token !== undefined);
    if (!any && rel !== '') {
      if ((await this.#client.headObject(this.#key(rel), options?.signal)) !== undefined) {
        throw new WorkspaceFileError(rel, 'not_directory', 'is a file, not a directory');
      }
      throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
    }
    const out = [...names].map(([name, kind]) => ({ name, kind }));
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Creates a folder: an empty marker object `<path>/`. */
  async mkdir(path: string, options?: WorkspaceCallOptions): Promise<void> {
    const rel = this.#rel(path);
    assertWritable(rel, 'path', path);
    if (rel === '' || (await this.#isFolder(rel, options?.signal))) return;
    if ((await this.#client.headObject(this.#key(rel), options?.signal)) !== undefined) {
      throw new WorkspaceFileError(rel, 'not_directory', 'is a file, not a directory');
    }
    await this.#client.putObject(this.#folderPrefix(rel), new Uint8Array(), options?.signal);
  }
}
