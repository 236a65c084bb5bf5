/**
 * `ls`: the entries of one directory with their type and size, by name, paginated with a cursor
 * (the last name returned), so any directory can be listed in bounded pages.
 */
import { defineTool } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { WorkspaceFileError } from '../../errors.js';
import { decodeCursor, encodeCursor, fingerprint } from '../shared/cursor.js';
import { filesOf, guard, ok } from '../shared/results.js';
import { shownPath } from '../shared/text.js';
import { listing } from './ls-listing.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

const lsInput = (z: Zod) =>
  z.strictObject({
    path: z.string().optional().describe('directory to list (default: the workspace root)'),
    limit: z.number().int().min(1).max(1000).optional().describe('entries per page, 1..1000 (default 200)'),
    cursor: z.string().min(1).optional().describe('the next_cursor of the previous page'),
  });

/** The `ls` tool. */
export const lsTool = defineTool({
  name: 'ls',
  description: `List one directory: each entry's type (file, directory, symlink, other), size in bytes, and name (directories end in "/"). Sorted by name and paged: limit (1..1000, default 200) and metadata.next_cursor. A name holding a control character (a newline, a tab, an escape) or starting with a double quote is shown as a JSON string, e.g. "a\\nb.txt"; the file's name is that string decoded. A byte of a name that is not UTF-8 is shown as \\udcXX (0xff as \\udcff) in such a string; the file tools refuse that name (rename the file with a command first).`,
  inputJsonSchema: toolJsonSchemas.ls,
  plainInput: true,
  input: lsInput,
  tier: 'read',
  requires: ['fs.list'],
  capabilities: {
    readOnly: true,
    idempotent: true,
    resumable: true,
    cancelSafe: true,
    paginated: true,
    maxParallelism: 16,
    outputType: 'text',
  },
  execute: (args, ctx) =>
    guard(async () => {
      const fs = filesOf(ctx, 'fs.list', 'ls');
      const path = args.path ?? '.';
      const limit = args.limit ?? 200;
      const fp = fingerprint([path]);
      const at = decodeCursor('ls', fp, args.cursor);
      const listed = () => fs.list(path, { signal: ctx.signal });
      const entries = await listing(ctx.workspace.fs ?? fs, fs, path, ctx.signal, at?.path !== undefined, listed).catch(
        async (error: unknown) => {
          // The path itself being a file reads "a parent … is not a directory" at the file-system level.
          if (!(error instanceof WorkspaceFileError && error.problem === 'not_directory')) throw error;
          const st = await fs.stat(path, { signal: ctx.signal }).catch(() => undefined);
          if (st === undefined || st.kind === 'directory') throw error;
          throw new WorkspaceFileError(
            path,
            'not_directory',
            `is a ${st.kind === 'file' ? 'file' : 'special file'}, not a directory; ls lists a directory (read shows a file's content)`,
          );
        },
      );
      const start = at?.path === undefined ? 0 : entries.findIndex((e) => e.name > at.path!);
      const from = start < 0 ? entries.length : start;
      const slice = entries.slice(from, from + limit);
      const canStat = ctx.workspace.capabilities.has('fs.read');
      const page = await Promise.all(
        slice.map(async (e) => {
          const child = path === '.' || path === '' ? e.name : `${path.replace(/\/+$/, '')}/${e.name}`;
          let size: number | null = null;
          if (e.kind === 'file' && canStat)
            size = (await fs.stat(child, { signal: ctx.signal }).catch(() => undefined))?.size ?? null;
          return { name: e.name, type: e.kind, size };
        }),
      );
      const more = from + limit < entries.length;
      const next = more ? encodeCursor('ls', fp, { path: slice[slice.length - 1]!.name }) : null;
      const lines = page.map(
        (e) =>
          `${e.type.padEnd(9)} ${(e.size === null ? '-' : String(e.size)).padStart(10)}  ${shownPath(e.name)}${e.type === 'directory' ? '/' : ''}`,
      );
      const tail = next
        ? `\n[${entries.length - from - page.length} more entries: pass cursor=${JSON.stringify(next)}]`
        : '';
      return ok((lines.length === 0 ? '(empty directory)' : lines.join('\n')) + tail, {
        path,
        total: entries.length,
        returned: page.length,
        truncated: more,
        next_cursor: next,
        entries: page,
      });
    }),
});
