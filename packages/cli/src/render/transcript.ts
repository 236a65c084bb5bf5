/**
 * The conversation of a fact log (`a3s replay --transcript`): each prompt, the model's answers,
 * each tool call with its arguments and its result summarised, questions and their answers, and
 * how each run ended. Read from the facts alone; a log is untrusted input (a model and its tools
 * wrote it, or anyone who could write the file), so every field is checked before it is used.
 */
import type { Fact } from '@a3s-code/effect';
import { terminalText } from '@a3s-code/core';
import type { Style } from '../style.js';

/** An attachment of a prompt, as the transcript names it. */
export interface TranscriptAttachment {
  readonly name?: string;
  readonly media_type: string;
  readonly size: number;
}

/** One entry of a transcript, in log order; `seq` is the fact it came from. */
export type TranscriptEntry =
  | { readonly kind: 'run'; readonly seq: number; readonly run_id: string; readonly model?: string }
  | {
      readonly kind: 'user';
      readonly seq: number;
      /** `user` (a prompt), `steer`, `history` or `continuation` (the completion gate or a stop hook). */
      readonly source: string;
      readonly text: string;
      readonly attachments?: readonly TranscriptAttachment[];
    }
  | { readonly kind: 'assistant'; readonly seq: number; readonly text: string }
  | {
      readonly kind: 'tool_call';
      readonly seq: number;
      readonly id: string;
      readonly name: string;
      readonly args: unknown;
    }
  | { readonly kind: 'question'; readonly seq: number; readonly question: string; readonly options: readonly string[] }
  | {
      readonly kind: 'answer';
      readonly seq: number;
      readonly text?: string;
      readonly skipped?: true;
      readonly error?: string;
    }
  | {
      readonly kind: 'confirmation';
      readonly seq: number;
      readonly tool_call_id: string;
      readonly approved: boolean;
      readonly reason?: string;
    }
  | {
      readonly kind: 'tool_result';
      readonly seq: number;
      readonly id: string;
      readonly name: string;
      readonly ok: boolean;
      readonly exit_code: number | null;
      /** The output's first non-empty line, cut at {@link SUMMARY_CHARS} characters. */
      readonly summary: string;
      /** Lines and characters of the whole output. */
      readonly lines: number;
      readonly chars: number;
    }
  | { readonly kind: 'budget_denied'; readonly seq: number; readonly tool_call_id: string }
  | { readonly kind: 'compaction'; readonly seq: number; readonly kept: number }
  | {
      readonly kind: 'end';
      readonly seq: number;
      readonly status: string;
      readonly completion?: string;
      readonly error?: string;
    };

/** How much of a result's first line a transcript keeps. */
export const SUMMARY_CHARS = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function attachmentsOf(v: unknown): TranscriptAttachment[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((a) => ({
    ...(typeof a.name === 'string' ? { name: a.name } : {}),
    media_type: str(a.media_type) ?? '?',
    size: typeof a.size === 'number' ? a.size : 0,
  }));
}

/** The entries of one `model.turn`: the text the model wrote, then its tool calls or its question. */
function turnEntries(seq: number, decision: unknown): TranscriptEntry[] {
  if (!isObj(decision)) return [];
  const out: TranscriptEntry[] = [];
  const text = str(decision.text) ?? '';
  if (text.trim() !== '') out.push({ kind: 'assistant', seq, text });
  if (decision.kind === 'tool' && Array.isArray(decision.calls))
    for (const c of decision.calls.filter(isObj))
      out.push({ kind: 'tool_call', seq, id: str(c.id) ?? '?', name: str(c.name) ?? '?', args: c.args ?? {} });
  if (decision.kind === 'question') {
    const options = Array.isArray(decision.options)
      ? decision.options.filter(isObj).map((o) => str(o.label) ?? '?')
      : [];
    out.push({ kind: 'question', seq, question: str(decision.question) ?? '', options });
  }
  return out;
}

/** The entry of a `tool.result`, its output summarised. */
function resultEntry(seq: number, p: Obj): TranscriptEntry {
  const output = str(p.output) ?? '';
  const first = output.split('\n').find((l) => l.trim() !== '') ?? '';
  return {
    kind: 'tool_result',
    seq,
    id: str(p.tool_call_id) ?? '?',
    name: str(p.name) ?? '?',
    ok: p.ok === true,
    exit_code: typeof p.exit_code === 'number' ? p.exit_code : null,
    summary: first.length > SUMMARY_CHARS ? `${first.slice(0, SUMMARY_CHARS)}…` : first,
    lines: output === '' ? 0 : output.replace(/\n$/, '').split('\n').length,
    chars: output.length,
  };
}

/** The entries of one fact (none for kinds the transcript does not show). */
function factEntries(fact: Fact): TranscriptEntry[] {
  const p: Obj = isObj(fact.payload) ? fact.payload : {};
  const seq = fact.seq;
  switch (fact.type) {
    case 'run.started':
      return [{ kind: 'run', seq, run_id: str(p.run_id) ?? '?', ...(str(p.model) ? { model: str(p.model)! } : {}) }];
    case 'user.message': {
      const attachments = attachmentsOf(p.attachments);
      return [
        {
          kind: 'user',
          seq,
          source: str(p.source) ?? 'user',
          text: str(p.text) ?? '',
          ...(attachments.length > 0 ? { attachments } : {}),
        },
      ];
    }
    case 'model.turn':
      return turnEntries(seq, p.decision);
    case 'tool.result':
      return [resultEntry(seq, p)];
    case 'question.answered':
      return [
        {
          kind: 'answer',
          seq,
          ...(str(p.text) !== undefined ? { text: str(p.text)! } : {}),
          ...(p.skipped === true ? { skipped: true as const } : {}),
          ...(str(p.error) !== undefined ? { error: str(p.error)! } : {}),
        },
      ];
    case 'confirmation.answered':
      return [
        {
          kind: 'confirmation',
          seq,
          tool_call_id: str(p.tool_call_id) ?? '?',
          approved: p.approved === true,
          ...(str(p.reason) ? { reason: str(p.reason)! } : {}),
        },
      ];
    case 'budget.denied':
      return [{ kind: 'budget_denied', seq, tool_call_id: str(p.tool_call_id) ?? '?' }];
    case 'compaction.done':
      return [{ kind: 'compaction', seq, kept: typeof p.kept === 'number' ? p.kept : 0 }];
    case 'run.ended': {
      const error = isObj(p.error) ? `${str(p.error.code) ?? 'ERROR'}: ${str(p.error.message) ?? ''}` : undefined;
      return [
        {
          kind: 'end',
          seq,
          status: str(p.status) ?? '?',
          ...(str(p.completion) ? { completion: str(p.completion)! } : {}),
          ...(error === undefined ? {} : { error }),
        },
      ];
    }
    default:
      return [];
  }
}

/** The conversation of `facts`, in log order. */
export function transcriptOf(facts: readonly Fact[]): TranscriptEntry[] {
  return facts.flatMap(factEntries);
}

/** How many characters of a call's arguments the text form shows. */
const ARGS_CHARS = 300;

/** `text` indented under its first line (a multi-line prompt or answer stays readable). */
function indented(text: string, indent: string): string {
  return terminalText(text.replace(/\s+$/, '')).split('\n').join(`\n${indent}`);
}

/** One entry as text lines, made safe to print on a terminal; `calls` names the tool of a call id. */
function entryLines(style: Style, e: TranscriptEntry, calls: ReadonlyMap<string, string>): string[] {
  const safe = terminalText;
  switch (e.kind) {
    case 'run':
      return ['', style.bold(`── run ${safe(e.run_id)}${e.model === undefined ? '' : ` (${safe(e.model)})`}`)];
    case 'user': {
      const who = e.source === 'user' ? 'you' : e.source;
      const lines = [`${style.cyan(`${who}:`)} ${indented(e.text, '  ')}`];
      for (const a of e.attachments ?? [])
        lines.push(style.dim(`  + ${safe(a.name ?? 'attachment')} (${safe(a.media_type)}, ${a.size} bytes)`));
      return lines;
    }
    case 'assistant':
      return [`${style.bold('model:')} ${indented(e.text, '  ')}`];
    case 'tool_call': {
      const args = JSON.stringify(e.args) ?? '{}';
      const shown = args.length > ARGS_CHARS ? `${args.slice(0, ARGS_CHARS)}…` : args;
      return [`  → ${safe(e.name)} ${safe(shown)}`];
    }
    case 'tool_result': {
      const mark = e.ok
        ? style.green('✓ ok')
        : style.red(`✗ failed${e.exit_code === null ? '' : ` (exit ${e.exit_code})`}`);
      const size = e.lines > 1 ? style.dim(` (${e.lines} lines)`) : '';
      return [`    ${mark} ${safe(e.name)}${e.summary === '' ? '' : `: ${safe(e.summary)}`}${size}`];
    }
    case 'question':
      return [
        `${style.bold('model asks:')} ${indented(e.question, '  ')}${e.options.length === 0 ? '' : ` [${e.options.map(safe).join(' / ')}]`}`,
      ];
    case 'answer':
      return [
        `${style.cyan('answer:')} ${e.text !== undefined ? indented(e.text, '  ') : e.skipped ? '(skipped)' : `(no answer: ${safe(e.error ?? 'unknown')})`}`,
      ];
    case 'confirmation':
      return [
        `    ${e.approved ? style.green('allowed') : style.red('refused')} ${safe(calls.get(e.tool_call_id) ?? e.tool_call_id)}${e.reason === undefined ? '' : `: ${safe(e.reason)}`}`,
      ];
    case 'budget_denied':
      return [
        style.yellow(`    not run: ${safe(calls.get(e.tool_call_id) ?? e.tool_call_id)} (the tool budget was used up)`),
      ];
    case 'compaction':
      return [style.dim(`  … earlier messages compacted into a summary (${e.kept} kept verbatim)`)];
    case 'end': {
      const how = `${safe(e.status)}${e.completion === undefined ? '' : ` (${safe(e.completion)})`}`;
      const colour = e.status === 'completed' ? style.green : style.red;
      return [colour(`── ${how}${e.error === undefined ? '' : `: ${indented(e.error, '   ')}`}`)];
    }
  }
}

/** A transcript as text lines for a terminal. */
export function transcriptLines(style: Style, entries: readonly TranscriptEntry[]): string[] {
  const calls = new Map<string, string>();
  for (const e of entries) if (e.kind === 'tool_call') calls.set(e.id, e.name);
  return entries.flatMap((e) => entryLines(style, e, calls));
}
