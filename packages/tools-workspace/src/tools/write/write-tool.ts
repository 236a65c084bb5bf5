/**
 * `write`: overwrite a file, or append to it. An append with `expected_offset` (the file's size
 * in bytes before this chunk) is idempotent: a retried chunk that is already there is reported,
 * not written twice, and a file of any other size is refused.
 */
import { defineTool, type ToolContext, type ToolResult } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { WorkspaceFileError } from '../../errors.js';
import { withFileLocks } from '../shared/file-lock.js';
import { changeMetadata, describeChange, preview } from '../shared/mutation.js';
import { failed, filesOf, guard, ok } from '../shared/results.js';
import { assertUnchanged, describedText, utf16Error } from '../shared/text-file.js';
import { uniformEol, withEol } from '../shared/line-ends.js';
import { looksBinary, shownPath, utf16Text } from '../shared/text.js';
import { assertWholeCharacters, assertWritableArg } from '../shared/writable.js';
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

/** Arguments of `write`. */
type WriteArgs = z.output<ReturnType<typeof writeInput>>;

/** The UTF-8 byte-order mark, as text. */
const BOM = '\ufeff';

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function endsWith(bytes: Uint8Array, tail: Uint8Array): boolean {
  return bytes.length >= tail.length && Buffer.from(tail).equals(bytes.subarray(bytes.length - tail.length));
}

/** The `write` tool. */
export const writeTool = defineTool({
  name: 'write',
  description: `Write a text file in the workspace. mode "overwrite" (default) replaces the whole file (a UTF-8 byte-order mark the file starts with is kept, as read never shows it; content without \\r written over or appended to a file whose line ends are all \\r\\n, or all \\r, gets the file's line ends); mode "append" adds content at the end. For chunked appends pass expected_offset = the file's size in bytes before this chunk (0 for a new file): a retried chunk that was already appended is reported as already applied instead of being written twice, and a file of another size is refused. Files under .a3s/ or any .git/ folder cannot be written. The result carries the changed path, digests, sizes and a bounded unified diff.`,
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
  execute: (args, ctx) => guard(() => withFileLocks(ctx, [args.file_path], () => writeFile(args, ctx))),
});

/** The write itself, holding the file's lock. */
async function writeFile(args: WriteArgs, ctx: ToolContext): Promise<ToolResult> {
  const fs = filesOf(ctx, 'fs.write', 'write');
  const path = args.file_path;
  assertWritableArg(ctx, path, 'file_path');
  assertWholeCharacters('write', 'content', args.content);
  const prior = await fs.stat(path, { signal: ctx.signal });
  if (prior?.kind === 'directory') throw new WorkspaceFileError(path, 'is_directory', 'is a directory, not a file');
  if (prior && prior.kind !== 'file')
    throw new WorkspaceFileError(
      path,
      'not_regular',
      'is not a regular file (a FIFO, socket or device); allowed: a regular file',
    );
  const bytes = prior ? await fs.readFile(path, { signal: ctx.signal }) : undefined;
  const before = bytes === undefined ? undefined : describedText(bytes);
  const append = args.mode === 'append';
  // UTF-8 bytes after UTF-16 text would not be text in either encoding.
  const utf16 = append && bytes !== undefined ? utf16Text(bytes) : undefined;
  if (utf16 !== undefined) throw utf16Error(path, utf16, 'append');
  // The model sends \n line ends: in a text file whose line ends are all CRLF (or CR), content without
  // a CR gets the file's line ends, written over it or appended.
  const eol =
    bytes !== undefined && before !== undefined && !looksBinary(bytes) && !args.content.includes('\r')
      ? uniformEol(before)
      : undefined;
  const content = withEol(args.content, eol);
  // An append adds bytes after the file's own bytes: nothing already there is decoded and re-encoded.
  const chunk = Buffer.from(content, 'utf8');
  if (append && args.expected_offset !== undefined) {
    const size = bytes?.length ?? 0;
    if (size === args.expected_offset + chunk.length && bytes !== undefined && endsWith(bytes, chunk)) {
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
  // `read` never shows a byte-order mark, so an overwrite that does not give one keeps the file's.
  const keptBom = !append && bytes !== undefined && startsWithBom(bytes) && !args.content.startsWith(BOM) ? BOM : '';
  const after = append ? (before ?? '') + content : keptBom + content;
  if (append) {
    await assertUnchanged(fs, path, bytes, ctx.signal);
    await fs.writeFile(path, bytes === undefined ? chunk : Buffer.concat([bytes, chunk]), { signal: ctx.signal });
  } else await fs.writeFile(path, after, { signal: ctx.signal });
  const described = describeChange(path, before, after);
  const size = append ? (bytes?.length ?? 0) + chunk.length : Buffer.byteLength(after, 'utf8');
  const verb = before === undefined ? 'created' : append ? 'appended to' : 'overwrote';
  return ok(
    `${verb} ${shownPath(path)} (${size} bytes, +${described.change.additions} -${described.change.deletions} lines)`,
    {
      path,
      mode: append ? 'append' : 'overwrite',
      bytes_written: chunk.length,
      size,
      preview: preview(args.content),
      ...changeMetadata([described]),
    },
  );
}
