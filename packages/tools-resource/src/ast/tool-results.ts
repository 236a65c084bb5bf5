/** Result helpers of the ast tools: failed results for typed ast failures, bounded text. */
import type { ToolResult } from '@a3s-code/core';
import { AstError } from './ast-errors.js';
import { MAX_FILE_BYTES } from './ast-files.js';

/** A failed result for a typed ast failure; `changes: []` tells the change ledger nothing was written. */
export function astFailure(error: AstError, metadata: Record<string, unknown> = {}): ToolResult {
  return {
    output: `${error.code}: ${error.message}`,
    exitCode: 1,
    metadata: { ...metadata, error: { code: error.code, message: error.message, details: error.details } },
  };
}

/** Runs a tool body; typed ast failures become failed results, anything else propagates. */
export async function astGuard(
  body: () => Promise<ToolResult>,
  metadata: Record<string, unknown> = {},
): Promise<ToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof AstError) return astFailure(error, metadata);
    throw error;
  }
}

/** The first line of `text`, cut to `max` characters. */
export function firstLine(text: string, max = 160): string {
  const line = text.split('\n', 1)[0] ?? '';
  const more = line.length > max || text.includes('\n');
  return line.length > max ? `${line.slice(0, max)}…` : more ? `${line} …` : line;
}

/** `text` cut to `max` characters. */
export function capped(text: string, max: number): { text: string; cut: boolean } {
  return text.length <= max ? { text, cut: false } : { text: text.slice(0, max), cut: true };
}

/** `n noun` with the plural when `n` is not 1 (`1 file`, `4 files`). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** Files named in a {@link skippedNote} at most. */
const SKIPPED_NAMED = 20;

/**
 * The line saying which files were not searched (binary, too large, unreadable), so "no matches"
 * is never read as "searched and found nothing"; `''` when every file was searched.
 */
export function skippedNote(skipped: readonly string[]): string {
  if (skipped.length === 0) return '';
  const named = skipped.slice(0, SKIPPED_NAMED).join(', ');
  const more = skipped.length > SKIPPED_NAMED ? `, … ${skipped.length - SKIPPED_NAMED} more` : '';
  return `\n[not searched: ${count(skipped.length, 'file')} (binary, larger than ${MAX_FILE_BYTES / (1024 * 1024)} MiB or unreadable): ${named}${more}]`;
}
