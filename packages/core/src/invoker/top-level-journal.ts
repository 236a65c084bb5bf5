/**
 * A top-level model call of a tool that writes files (tier `write`), journaled the moment the tool
 * has returned, before its post-hooks, its output handling and the append of its result to the
 * log. When the process dies in that window the resumed run re-runs the call; the re-run finds the
 * journaled end and reports it (`metadata.recovered: true`) instead of writing a second time (an
 * `edit` whose text is already replaced would fail, a `write` would write again). Nothing is run
 * or approved on the strength of the journal: it only says what an attempt already did. Commands
 * and sub-agents are not journaled here: their re-run rules stand (a command runs again, asked
 * again; a sub-agent is taken up from its own log).
 */
import type { ChangeRecordEntry } from '../gate/change-record.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import type { CallJournal } from './call-journal.js';
import type { PermissionOutcome, ToolCallRequest } from './invocation-types.js';
import { jsonSafe } from './json-safe.js';
import type { CallFrame } from './kernel.js';

/** What a re-run takes from a journaled attempt. */
export interface RecordedAttempt {
  readonly result: ToolResult;
  readonly permission: PermissionOutcome | undefined;
  readonly changes: readonly ChangeRecordEntry[];
}

/** The journal and key a top-level call of `tool` is journaled under, if it is journaled at all. */
function journalOf(frame: CallFrame, tool: Tool): { journal: CallJournal; key: string } | undefined {
  const attempt = frame.attempt;
  if (frame.depth !== 0 || tool.tier !== 'write' || attempt?.journal === undefined) return undefined;
  return { journal: attempt.journal, key: attempt.key };
}

/** For the re-run of an interrupted top-level call: what its earlier attempt ended with, when it was journaled. */
export async function recordedAttempt(
  frame: CallFrame,
  tool: Tool,
  request: ToolCallRequest,
): Promise<RecordedAttempt | undefined> {
  if (frame.interrupted !== true) return undefined;
  const at = journalOf(frame, tool);
  const entry = at === undefined ? undefined : await at.journal.recorded(at.key, tool.name, request.args);
  if (entry === undefined) return undefined;
  const r = entry.result;
  return {
    result: { output: r.output, exitCode: r.exitCode, metadata: { ...r.metadata, recovered: true } },
    permission: r.permission,
    changes: entry.changes,
  };
}

/** Journals how the tool of a top-level call returned (a journal that cannot be written is skipped). */
export async function recordAttempt(
  frame: CallFrame,
  tool: Tool,
  request: ToolCallRequest,
  result: ToolResult,
  permission: PermissionOutcome,
  changes: readonly ChangeRecordEntry[],
): Promise<void> {
  const at = journalOf(frame, tool);
  if (at === undefined) return;
  await at.journal.record(
    at.key,
    tool.name,
    request.args,
    {
      id: request.id,
      name: tool.name,
      source: frame.source,
      ok: result.exitCode === 0,
      output: result.output,
      exitCode: result.exitCode,
      metadata: jsonSafe(result.metadata ?? {}),
      permission,
      durationMs: 0,
    },
    changes,
  );
}
