/**
 * A sub-agent that an interrupted attempt of its calling tool call started, found again when a
 * resumed run runs that call once more (the process died while it ran): the child's run.started
 * fact names the call that started it (`delegated_by`), so the re-run continues that child's run,
 * or reports how it ended, instead of starting the same work a second time.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { sync, type Fact, type Folder } from '@a3s-code/effect';
import type { MutationLedger } from '../gate/mutation-ledger.js';
import type { FactStore } from '../store/fact-store.js';
import type { JsonValue } from '../tools/json-schema.js';

/** The calling tool call a child records in its `run.started` fact (`delegated_by`). */
export interface DelegatedBy {
  /** The calling run. */
  readonly run_id: string;
  /** Where the calling call stands in that run's log (see `CallAttempt.key`), with `#<branch>` for a `parallel_task` branch. */
  readonly call: string;
}

/** How much of a child log is read to find its `run.started` fact: the fields it names come first. */
const HEAD_BYTES = 64 * 1024;

/**
 * The `run.started` field that names the calling call, as its JSON appears in the log (the
 * fields a run adds come right after `run_id`). Quotes inside a string value are escaped, so the
 * text can only match the field itself.
 */
function marker(by: DelegatedBy): string {
  return `"delegated_by":${JSON.stringify({ run_id: by.run_id, call: by.call })}`;
}

/** The first line of a file, as far as {@link HEAD_BYTES} hold it. */
function firstLine(path: string): string {
  const start = head(path);
  const end = start.indexOf('\n');
  return end === -1 ? start : start.slice(0, end);
}

function head(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.toString('utf8', 0, n);
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The number of the latest task thread in `folder` (`<thread>.task-<n>.jsonl`, `numbers` newest
 * last) whose child `by` started, if any.
 */
export function findDelegated(
  folder: string,
  thread: string,
  numbers: readonly number[],
  by: DelegatedBy,
): number | undefined {
  const text = marker(by);
  for (let i = numbers.length - 1; i >= 0; i--) {
    const n = numbers[i]!;
    const line = firstLine(join(folder, `${thread}.task-${n}.jsonl`));
    if (line.includes('"run.started"') && line.includes(text)) return n;
  }
  return undefined;
}

/**
 * The `run.started` fields of a task's child: the call that started it, when a run's model made
 * it (`delegated_by`: the run, and the call's place `callKey`), and its task (`task`: agent,
 * description and, in the background, that it runs there and the run that started it), so a
 * later process can find it and take it up.
 */
export function taskRecord(
  runId: string,
  callKey: string | undefined,
  request: { readonly agent: { readonly name: string }; readonly description: string },
  background: boolean,
): Readonly<Record<string, JsonValue>> {
  const task = {
    agent: request.agent.name,
    description: request.description,
    ...(background ? { background, run_id: runId } : {}),
  };
  return callKey === undefined ? { task } : { delegated_by: { run_id: runId, call: callKey }, task };
}

/** What a background task's child records of its task in its `run.started` fact (`task`). */
export interface RecordedTask {
  readonly agent: string;
  readonly description: string;
  /** The run that started it. */
  readonly run_id: string;
}

/**
 * The task a background child's log records (`task` with `background: true` on its `run.started`
 * fact), or `undefined` when the file holds no such child. The field comes right after `run_id`,
 * so the start of the line holds it even when the fact is long; a key with unescaped quotes can
 * only be the field itself.
 */
export function recordedBackgroundTask(path: string): RecordedTask | undefined {
  const line = firstLine(path);
  if (!line.includes('"run.started"')) return undefined;
  const m =
    /"task":(\{"agent":"(?:[^"\\]|\\.)*","description":"(?:[^"\\]|\\.)*","background":true,"run_id":"(?:[^"\\]|\\.)*"\})/.exec(
      line,
    );
  if (m === null) return undefined;
  try {
    const t = JSON.parse(m[1]!) as RecordedTask;
    return { agent: t.agent, description: t.description, run_id: t.run_id };
  } catch {
    return undefined;
  }
}

/** Where a found child's log stands: no run yet, its run still open, or its run ended. */
export type ChildLogState =
  | { readonly kind: 'new' }
  | { readonly kind: 'open'; readonly runId: string }
  | {
      readonly kind: 'ended';
      readonly runId: string;
      readonly status: 'completed' | 'cancelled' | 'failed';
      readonly error?: { readonly code: string; readonly message: string };
    };

/** The state of a child log (one run a thread) after folding it into `folder`. */
export function childLogState(store: FactStore, folder: Folder): ChildLogState {
  sync(folder, store.log);
  const { run_id: runId, status } = folder.state.view.run;
  if (runId === null || status === null) return { kind: 'new' };
  if (status === 'running') return { kind: 'open', runId };
  const ended = store.log.facts.findLast((f) => f.type === 'run.ended');
  const error = (ended?.payload as { error?: { code: string; message: string } | null } | undefined)?.error;
  const kind = status === 'completed' || status === 'cancelled' ? status : 'failed';
  return {
    kind: 'ended',
    runId,
    status: kind,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
}

/** What an ended child's log says it did: model turns and tool results as steps, its calls and its tokens. */
export function recordedTotals(facts: readonly Fact[]): {
  readonly steps: number;
  readonly tool_calls: number;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
  readonly answered: boolean;
} {
  let turns = 0;
  let calls = 0;
  let input = 0;
  let output = 0;
  for (const f of facts) {
    if (f.type === 'model.turn') {
      turns++;
      const u = (f.payload as { usage?: { input_tokens?: number; output_tokens?: number } }).usage;
      input += u?.input_tokens ?? 0;
      output += u?.output_tokens ?? 0;
    } else if (f.type === 'tool.result') calls++;
  }
  return {
    steps: turns + calls,
    tool_calls: calls,
    usage: { input_tokens: input, output_tokens: output },
    answered: turns > 0,
  };
}

/** The child's changes as the parent's task result reports them. */
export function changesOf(
  ledger: MutationLedger,
): readonly { readonly path: string; readonly digest_after: string | null; readonly action?: 'delete' }[] {
  return ledger.entries.map((e) =>
    e.digest === 'deleted'
      ? { path: e.path, digest_after: null, action: 'delete' as const }
      : { path: e.path, digest_after: e.digest },
  );
}
