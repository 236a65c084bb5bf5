/**
 * The result of a finished program: readable text in `output` (log lines, then the
 * result) cut at `max_output_bytes`, and the structured return value in `metadata.result` when
 * its JSON fits that budget.
 */
import type { ToolResult } from '../tools/tool.js';
import type { ProgramCallRecord } from './ctx-bridge.js';
import type { ScriptOutcome } from './program-vm.js';

/** What the program did, as `metadata.program`. */
export interface ProgramRunStats {
  readonly file: string;
  readonly tool_calls: number;
  readonly calls: readonly ProgramCallRecord[];
  readonly refused: readonly string[];
  readonly refused_calls: number;
  readonly duration_ms: number;
  readonly dropped_log_bytes: number;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return buf.subarray(0, end).toString('utf8');
}

function resultText(outcome: ScriptOutcome): string {
  switch (outcome.kind) {
    case 'string':
      return outcome.text;
    case 'undefined':
      return '(run returned undefined)';
    case 'unserializable':
      return `(the return value is not JSON-serialisable: ${outcome.text})`;
    case 'json':
      return outcome.totalChars > outcome.text.length
        ? outcome.text
        : JSON.stringify(JSON.parse(outcome.text), null, 2);
  }
}

/** Builds the `ToolResult` of a program that completed. */
export function programResult(
  outcome: ScriptOutcome,
  logs: readonly string[],
  stats: ProgramRunStats,
  maxOutputBytes: number,
): ToolResult {
  const body = resultText(outcome);
  const full = logs.length > 0 ? `log:\n${logs.join('\n')}\n\nresult:\n${body}` : body;
  const fullBytes = outcome.totalChars > outcome.text.length ? Number.POSITIVE_INFINITY : Buffer.byteLength(full);
  const truncated = fullBytes > maxOutputBytes || outcome.totalChars > outcome.text.length;
  let output = full;
  if (truncated) {
    const note = `\n[output cut at limits.max_output_bytes=${maxOutputBytes}; the result was ${outcome.totalChars} characters: return a summary instead of raw data]`;
    output = cutUtf8(full, Math.max(0, maxOutputBytes - Buffer.byteLength(note))) + note;
  }
  let result: unknown = null;
  let resultKept = false;
  if (outcome.totalChars === outcome.text.length && Buffer.byteLength(outcome.text) <= maxOutputBytes) {
    if (outcome.kind === 'json') {
      result = JSON.parse(outcome.text) as unknown;
      resultKept = true;
    } else if (outcome.kind === 'string') {
      result = outcome.text;
      resultKept = true;
    }
  }
  return {
    output,
    exitCode: 0,
    metadata: {
      result,
      program: {
        ...stats,
        result_kind: outcome.kind,
        result_chars: outcome.totalChars,
        result_kept: resultKept,
        truncated,
      },
    },
  };
}
