/**
 * A workspace on a real folder for this package's tests (the package may not depend on
 * `@a3s-code/tools-workspace`): `fs.read`, `fs.write`, `fs.list` and a `glob` that walks the
 * folder, skipping `.git` and `node_modules`, and matching `**` or `*.{ext,...}` name patterns only.
 */
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { WorkspaceGlobRequest, WorkspaceServices } from '@a3s-code/core';
import { readRegularFile } from '../shared/regular-file.js';

async function* walk(root: string, rel: string): AsyncGenerator<string> {
  const entries = await readdir(join(root, rel), { withFileTypes: true });
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== '.git' && e.name !== 'node_modules') yield* walk(root, p);
    } else if (e.isFile()) yield p;
  }
}

function nameMatcher(pattern: string): (name: string) => boolean {
  if (pattern === '**') return () => true;
  const m = /^\*\.\{(.+)\}$/.exec(pattern) ?? /^\*\.(.+)$/.exec(pattern);
  if (!m) throw new Error(`test workspace: unsupported glob ${pattern}`);
  const exts = m[1]!.split(',').map((e) => `.${e}`);
  return (name) => exts.some((e) => name.endsWith(e));
}

/** A workspace rooted at `root`, with `writes` counting `writeFile` calls. */
export function diskWorkspace(root: string): WorkspaceServices & { writes: string[] } {
  const writes: string[] = [];
  return {
    root,
    writes,
    capabilities: new Set(['fs.read', 'fs.write', 'fs.list', 'search'] as const),
    fs: {
      // Like a real workspace, a FIFO or a device is refused before anything is read.
      readFile: async (path) => new Uint8Array(await readRegularFile(join(root, path))),
      stat: async (path) => {
        const s = await stat(join(root, path)).catch(() => undefined);
        return s === undefined
          ? undefined
          : { kind: s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other', size: s.size, mtimeMs: s.mtimeMs };
      },
      writeFile: async (path, data) => {
        writes.push(path);
        const full = join(root, path);
        await mkdir(dirname(full), { recursive: true });
        await writeFile(`${full}.tmp`, data);
        await rename(`${full}.tmp`, full);
      },
      remove: (path) => rm(join(root, path)),
      list: async (path) =>
        (await readdir(join(root, path), { withFileTypes: true })).map((e) => ({
          name: e.name,
          kind: e.isDirectory() ? 'directory' : 'file',
        })),
    },
    search: {
      grep: () => {
        throw new Error('test workspace: grep is not supported');
      },
      async *glob(request: WorkspaceGlobRequest) {
        const match = nameMatcher(request.pattern);
        for await (const p of walk(root, request.path ?? '')) if (match(p.slice(p.lastIndexOf('/') + 1))) yield p;
      },
    },
  };
}
