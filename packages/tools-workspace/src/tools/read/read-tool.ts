/**
 * `read`: one file by `file_path`, or a batch by `files`, always bounded by
 * `max_output_bytes`, always with an explicit continuation when output is incomplete.
 */
import { defineTool, InvalidToolArgsError, type ToolArgRefinement } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { assertNotRuntimeState, normalizeWorkspacePath } from '../../paths/normalize.js';
import { filesOf, guard, ok } from '../shared/results.js';
import { readBatch } from './read-batch.js';
import { READ_DESCRIPTION } from './read-description.js';
import { MAX_READ_LIMIT } from './read-file.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** Default and bounds of `max_output_bytes`. */
export const READ_MAX_OUTPUT_BYTES = { min: 1024, max: 98_304, default: 65_536 } as const;

const offset = (z: Zod) => z.number().int().min(0).describe('0-based index of the first line to return');
const limit = (z: Zod) =>
  z.number().int().min(1).max(MAX_READ_LIMIT).describe('number of lines, 1..2000 (default 2000)');

const readInput = (z: Zod) =>
  z.strictObject({
    file_path: z
      .string()
      .min(1)
      .optional()
      .describe('the file to read (relative to the workspace, or absolute inside it)'),
    offset: offset(z).optional(),
    limit: limit(z).optional(),
    files: z
      .array(z.strictObject({ path: z.string().min(1), offset: offset(z).optional(), limit: limit(z).optional() }))
      .min(1)
      .max(32)
      .optional()
      .describe('a batch of 1..32 files, each with an optional offset and limit'),
    max_output_bytes: z
      .number()
      .int()
      .min(READ_MAX_OUTPUT_BYTES.min)
      .max(READ_MAX_OUTPUT_BYTES.max)
      .optional()
      .describe('byte budget of the whole response, 1024..98304 (default 65536)'),
  });

/** `read`'s rules across fields. */
function readRules(v: ReadArgs): ToolArgRefinement[] {
  const issues: ToolArgRefinement[] = [];
  if ((v.file_path === undefined) === (v.files === undefined))
    issues.push({ path: ['file_path'], message: 'give exactly one of file_path or files' });
  if (v.files !== undefined && (v.offset !== undefined || v.limit !== undefined))
    issues.push({
      path: [v.offset !== undefined ? 'offset' : 'limit'],
      message: 'with files, give offset and limit inside each entry',
    });
  return issues;
}

/** Arguments of `read` after validation. */
export type ReadArgs = z.output<ReturnType<typeof readInput>>;

/** The `read` tool. */
export const readTool = defineTool({
  name: 'read',
  description: READ_DESCRIPTION,
  inputJsonSchema: toolJsonSchemas.read,
  input: readInput,
  plainInput: true,
  refine: readRules,
  tier: 'read',
  requires: ['fs.read'],
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
      const fs = filesOf(ctx, 'fs.read', 'read');
      const budget = args.max_output_bytes ?? READ_MAX_OUTPUT_BYTES.default;
      if (args.files !== undefined) {
        const batch = await readBatch(fs, args.files, budget, ctx.signal, false);
        return ok(batch.output, {
          batch: {
            truncated: batch.truncated,
            continuation: batch.continuation,
            entries: batch.entries,
            bytes: batch.bytes,
            max_output_bytes: budget,
          },
        });
      }
      const path = args.file_path;
      if (path === undefined)
        throw new InvalidToolArgsError('read', [
          { field: 'args.file_path', message: 'give exactly one of file_path or files' },
        ]);
      // Checked here too, so that a refusal names the argument.
      const rel = normalizeWorkspacePath(path, { root: ctx.workspace.root, field: 'file_path' });
      assertNotRuntimeState(rel, 'file_path', path);
      const single = await readBatch(fs, [{ path, offset: args.offset, limit: args.limit }], budget, ctx.signal, true);
      const entry = single.entries[0]!;
      let output = single.output;
      if (entry.binary !== true) {
        if (entry.next_offset !== null && entry.next_offset !== undefined) {
          output += `[${(entry.total_lines ?? 0) - entry.next_offset} more lines; continue with offset=${entry.next_offset} (total_lines=${entry.total_lines})]\n`;
        } else if (entry.lines_returned === 0) {
          output += `[no lines: offset ${entry.offset} is at or past the end (total_lines=${entry.total_lines})]\n`;
        }
      }
      return ok(output, {
        path,
        offset: entry.offset,
        lines_returned: entry.lines_returned,
        total_lines: entry.total_lines ?? null,
        next_offset: entry.next_offset ?? null,
        eof: entry.eof ?? true,
        binary: entry.binary === true,
        size: entry.size,
        digest: entry.digest,
        ...(entry.encoding === undefined ? {} : { encoding: entry.encoding }),
      });
    }),
});
