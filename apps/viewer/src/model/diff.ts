/**
 * Diffs of tool calls, for rendering: the unified diff a mutating tool recorded in its result's
 * metadata, else the diff implied by the call (a `patch`'s text, an `edit`'s strings, a `write`).
 */
import type { ToolCall } from '@a3s-code/effect';

/** One line of a rendered diff. */
export interface DiffLine {
  readonly kind: 'file' | 'hunk' | 'add' | 'del' | 'ctx' | 'note';
  readonly text: string;
}

/** A diff to show, with where it came from. */
export interface DiffView {
  readonly source: 'result' | 'patch' | 'edit' | 'write';
  readonly lines: readonly DiffLine[];
  readonly additions: number;
  readonly deletions: number;
}

const MAX_LINES = 5000;

/** Classifies the lines of a unified diff text. */
export function parseUnifiedDiff(text: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const line of text.split('\n')) {
    if (out.length >= MAX_LINES) {
      out.push({ kind: 'note', text: `[diff cut at ${MAX_LINES} lines]` });
      break;
    }
    if (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('diff ') || line.startsWith('index '))
      out.push({ kind: 'file', text: line });
    else if (line.startsWith('@@')) out.push({ kind: 'hunk', text: line });
    else if (line.startsWith('+')) out.push({ kind: 'add', text: line });
    else if (line.startsWith('-')) out.push({ kind: 'del', text: line });
    else if (line.startsWith('[') || line.startsWith('\\')) out.push({ kind: 'note', text: line });
    else if (line !== '' || out.length > 0) out.push({ kind: 'ctx', text: line });
  }
  while (out.length > 0 && out[out.length - 1]!.kind === 'ctx' && out[out.length - 1]!.text === '') out.pop();
  return out;
}

function view(source: DiffView['source'], lines: DiffLine[]): DiffView {
  let additions = 0;
  let deletions = 0;
  for (const l of lines) {
    if (l.kind === 'add') additions++;
    else if (l.kind === 'del') deletions++;
  }
  return { source, lines, additions, deletions };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The diff of a tool call: from its result's `metadata.diff` when the tool recorded one,
 * otherwise from the call's arguments; `null` when the call changes no file text.
 */
export function diffOf(
  call: ToolCall | undefined,
  metadata: Record<string, unknown> | null | undefined,
): DiffView | null {
  const recorded = str(metadata?.diff);
  if (recorded !== undefined && recorded.trim() !== '') return view('result', parseUnifiedDiff(recorded));
  if (call === undefined) return null;
  const a = call.args;
  const patch = str(a.patch);
  if (patch !== undefined && /^(---|\+\+\+|@@)/m.test(patch)) return view('patch', parseUnifiedDiff(patch));
  const path = str(a.file_path) ?? str(a.path) ?? '(file)';
  const oldText = str(a.old_string);
  const newText = str(a.new_string);
  if (oldText !== undefined && newText !== undefined) {
    return view('edit', [
      { kind: 'file', text: `--- a/${path}` },
      { kind: 'file', text: `+++ b/${path}` },
      ...oldText.split('\n').map((t): DiffLine => ({ kind: 'del', text: `-${t}` })),
      ...newText.split('\n').map((t): DiffLine => ({ kind: 'add', text: `+${t}` })),
    ]);
  }
  const content = str(a.content);
  if (call.name === 'write' && content !== undefined) {
    return view('write', [
      { kind: 'file', text: `+++ b/${path}` },
      ...content
        .split('\n')
        .slice(0, MAX_LINES)
        .map((t): DiffLine => ({ kind: 'add', text: `+${t}` })),
    ]);
  }
  return null;
}
