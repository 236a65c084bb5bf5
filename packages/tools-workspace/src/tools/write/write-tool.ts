/**
 * `write`: overwrite a file, or append to it. An append with `expected_offset` (the file's size
 * in bytes before this chunk) is idempotent: a retried chunk that is already there is reported,
 * not written twice, and a file of any other size is refused.
 */
import { defineTool } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { WorkspaceFileError } from '../../errors.js';
import { changeMetadata, describeChange, preview } from '../shared/mutation.js';
import { failed, filesOf, guard, ok } from '../shared/results.js';
import { byteLength, decodeText } from '../shared/text.js';
import { assertWritableArg } from '../shared/writable.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

const writeInput = (z: Zod) =>
  z.strictObject({
    file_path: z.string().min(1).describe('the file to write (parents are created)'),
    content: z.string().describe('the text to write'),
    mode: z.enum(['overwrite', 'append']).optional().describe('overwrite (default) or append'),
    expected_offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('append only: the file size in bytes before this chunk; a retried chunk is not appended twice'),
  });

/** The `write` tool. */
export const writeTool = defineTool({
  name: 'write',
  description: `Write a text file in the workspace. mode "overwrite" (default) replaces the whole file; mode "append" adds content at the end. For chunked appends pass expected_offset = the file's size in bytes before this chunk (0 for a new file): a retried chunk that was already appended is reported as already applied instead of being written twice, and a file of another size is refused. Files under .a3s/ or any .git/ folder cannot be written. The result carries the changed path, digests, sizes and a bounded unified diff.`,
  inputJsonSchema: toolJsonSchemas.write,
  input: writeInput,
  plainInput: true,
  refine: (v) =>
    v.expected_offset !== undefined && v.mode !== 'append'
      ? [{ path: ['expected_offset'], message: 'is allowed only with mode "append"' }]
      : [],
  tier: 'write',
  requires: ['fs.read', 'fs.write'],
  capabilities: {
    readOnly: false,
    idempotent: true,
    resumable: true,
    cancelSafe: true,
    paginated: false,
    maxParallelism: 1,
    outputType: 'text',
  },
  capabilitiesFor: (args) => ({ idempotent: args.mode !== 'append' || args.expected_offset !== undefined }),
  execute: (args, ctx) =>
    guard(async () => {
      const fs = filesOf(ctx, 'fs.write', 'write');
      const path = args.file_path;
      assertWritableArg(ctx, path, 'file_path');
      const prior = await fs.stat(path, { signal: ctx.signal });
      if (prior && prior.kind !== 'file') throw new WorkspaceFileError(path, 'is_directory', 'is not a regular file');
      const before = prior ? decodeText(await fs.readFile(path, { signal: ctx.signal })) : undefined;
      const append = args.mode === 'append';
      if (append && args.expected_offset !== undefined) {
        const size = prior?.size ?? 0;
        const chunk = byteLength(args.content);
        if (size === args.expected_offset + chunk && before !== undefined && before.endsWith(args.content)) {
          return ok(`${path}: this chunk is already appended (size ${size}); nothing written`, {
            path,
            already_applied: true,
            size,
            changed_paths: [],
            changes: [],
          });
        }
        if (size !== args.expected_offset) {
          return failed(
            new WorkspaceFileError(
              path,
              'io',
              `expected_offset ${args.expected_offset} does not match the file size ${size}; nothing written`,
            ),
            { path, size },
          );
        }
      }
      const after = append ? (before ?? '') + args.content : args.content;
      await fs.writeFile(path, after, { signal: ctx.signal });
      const described = describeChange(path, before, after);
      const verb = before === undefined ? 'created' : append ? 'appended to' : 'overwrote';
      return ok(
        `${verb} ${path} (${byteLength(after)} bytes, +${described.change.additions} -${described.change.deletions} lines)`,
        {
          path,
          mode: append ? 'append' : 'overwrite',
          bytes_written: byteLength(args.content),
          size: byteLength(after),
          preview: preview(args.content),
          ...changeMetadata([described]),
        },
      );
    }),
});
