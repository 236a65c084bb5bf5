/**
 * Opaque pagination cursors. A cursor carries the position to resume after and a fingerprint
 * of the query that produced it, so a cursor passed to a different query is refused with a
 * typed error instead of silently skipping results.
 */
import { createHash } from 'node:crypto';
import { InvalidToolArgsError } from '@a3s-code/core';

/** A decoded position: the last path (and line) returned, or an offset. */
export interface CursorPosition {
  readonly path?: string;
  readonly line?: number;
  readonly offset?: number;
}

/** A short fingerprint of the arguments that define a result sequence. */
export function fingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

/** Encodes a cursor for tool `tool` and query fingerprint `fp`. */
export function encodeCursor(tool: string, fp: string, position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ t: tool, f: fp, ...position })).toString('base64url');
}

/** Decodes a cursor; throws `INVALID_TOOL_ARGS` on `args.cursor` when it is malformed or foreign. */
export function decodeCursor(tool: string, fp: string, cursor: string | undefined): CursorPosition | undefined {
  if (cursor === undefined) return undefined;
  const bad = (why: string): never => {
    throw new InvalidToolArgsError(tool, [
      {
        field: 'args.cursor',
        message: `${why}; allowed: a cursor returned by a previous ${tool} call with the same arguments`,
      },
    ]);
  };
  let parsed: { t?: unknown; f?: unknown; path?: unknown; line?: unknown; offset?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    return bad('is not a valid cursor');
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.t !== tool) return bad('is not a valid cursor');
  if (parsed.f !== fp) return bad('belongs to a different query');
  const out: { path?: string; line?: number; offset?: number } = {};
  if (typeof parsed.path === 'string') out.path = parsed.path;
  if (typeof parsed.line === 'number' && Number.isInteger(parsed.line)) out.line = parsed.line;
  if (typeof parsed.offset === 'number' && Number.isInteger(parsed.offset) && parsed.offset >= 0)
    out.offset = parsed.offset;
  return out;
}
