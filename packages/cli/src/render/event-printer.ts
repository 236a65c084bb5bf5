/**
 * Renders projected event envelopes for people: streamed text, a card per tool call with its
 * live output and elapsed time, refused and denied calls, the completion gate's extra turns,
 * the verification summary that ended a run, compactions and errors. Confirmations and
 * questions are rendered by whoever answers them.
 */
import type { ProjectedEventV1 } from '@a3s-code/sdk';
import type { Style } from '../style.js';
import { isRefusal, stoppedLine, type StoppedCalls } from './denials.js';
import { ElapsedTicker } from './elapsed.js';
import { LiveLines } from './live-lines.js';
import { workerLine } from './worker-lines.js';
import { cardEnd, cardStart, clip, CARD_WIDTH } from './tool-card.js';
import { terminalSafe } from './terminal-text.js';

/** Where the printer writes. */
export interface Sink {
  write(text: string): unknown;
  /** The terminal's width, when it is a terminal that says (the status line is kept to one row). */
  readonly columns?: number;
}

/** Prints events; `newline()` ends a line of streamed text if one is open (call it before printing anything else). */
export interface EventPrinter {
  (ev: ProjectedEventV1): void;
  newline(): void;
  /** Refused and denied calls seen since the last {@link EventPrinter.reset}. */
  readonly stopped: Readonly<StoppedCalls>;
  /** Starts counting a new run. */
  reset(): void;
  /** Stops the elapsed-time ticker. */
  close(): void;
}

/** Printer options. */
export interface EventPrinterOptions {
  /** Redraw the elapsed time in place (a terminal); otherwise plain `… 10s` lines. Default false. */
  readonly tty?: boolean;
  /** Show elapsed time of long calls. Default true. */
  readonly elapsed?: boolean;
  /** Lines to print under a finished call about the artifacts its result references (saving them). */
  readonly artifacts?: (metadata: unknown) => readonly string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const ORIGINS: Readonly<Record<string, string>> = { completion_gate: 'completion gate', stop_hook: 'stop hook' };

/** `↻ completion gate: <reason> (attempt 1/3)`. */
export function continuedLine(p: Readonly<Record<string, unknown>>): string {
  const origin = ORIGINS[str(p.origin)] ?? str(p.origin);
  const reason = clip(str(p.reason).split('\n')[0] ?? '', CARD_WIDTH);
  const attempt =
    typeof p.attempt === 'number'
      ? ` (attempt ${p.attempt}${typeof p.max_attempts === 'number' ? `/${p.max_attempts}` : ''})`
      : '';
  return `↻ ${origin}: ${reason}${attempt}`;
}

/** The ticker's key for a model call in flight (no tool call id looks like it). */
const MODEL_WAIT = '\u0000model';
/** Events that end a wait for the model. */
const MODEL_ANSWERS = new Set(['text_delta', 'reasoning_delta', 'tool_start', 'turn_end', 'error', 'agent_end']);

/** Creates a printer writing to `out`. */
export function createEventPrinter(out: Sink, style: Style, options: EventPrinterOptions = {}): EventPrinter {
  let midLine = false;
  const nested = new Set<string>();
  const seen = new Set<string>();
  const stoppedIds = new Set<string>();
  const live = new LiveLines();
  const stopped: StoppedCalls = { refused: 0, denied: 0 };
  const ticker =
    options.elapsed === false
      ? undefined
      : new ElapsedTicker({
          write: (t) => void out.write(t),
          dim: style.dim,
          tty: options.tty === true,
          columns: () => out.columns,
        });
  const write = (text: string): void => {
    ticker?.clear();
    out.write(text);
  };
  /** Ends an open line of streamed text; `pause` keeps the status line away until the next event. */
  const endLine = (pause: boolean): void => {
    ticker?.clear(pause);
    if (midLine) out.write('\n');
    midLine = false;
  };
  // From outside (a prompt is about to be shown): the status line stays away until the next event.
  const newline = (): void => endLine(true);
  const pad = (id: string): string => (nested.has(id) ? '      ' : '  ');
  const liveLine = (id: string, line: string): string => `${pad(id)}${style.dim('│')} ${clip(line, CARD_WIDTH)}\n`;

  const print = ((event: ProjectedEventV1) => {
    // Everything in an event may come from the model, a tool or a server: nothing in it reaches
    // the terminal as a control sequence.
    const ev = terminalSafe(event);
    const p = ev.payload;
    ticker?.resume();
    // The model answers (or the run ends): its wait is over.
    if (MODEL_ANSWERS.has(ev.type)) ticker?.stop(MODEL_WAIT);
    switch (ev.type) {
      case 'turn_start':
        ticker?.start(MODEL_WAIT, 'waiting for the model');
        return;
      case 'text_delta': {
        const text = ev.text ?? '';
        if (text === '') return;
        write(text);
        midLine = !text.endsWith('\n');
        return;
      }
      case 'tool_start': {
        endLine(false);
        const id = str(p.id);
        const isNested = p.source === 'nested' || p.source === 'host_nested';
        seen.add(id);
        if (isNested) nested.add(id);
        else ticker?.start(id, str(p.name));
        write(cardStart(style, str(p.name), p.args, isNested));
        return;
      }
      case 'tool_output_delta': {
        const id = str(p.id);
        ticker?.heard(id);
        for (const line of live.push(id, str(p.delta))) write(liveLine(id, line));
        return;
      }
      case 'tool_end': {
        const id = str(p.id);
        ticker?.stop(id);
        const streamed = live.has(id);
        const rest = live.end(id);
        for (const line of rest.lines) write(liveLine(id, line));
        if (rest.hidden > 0) write(`${pad(id)}${style.dim(`│ … ${rest.hidden} more line(s) in the result`)}\n`);
        if (stoppedIds.has(id)) return;
        write(
          cardEnd(style, {
            name: str(p.name),
            output: str(p.output),
            exitCode: typeof p.exit_code === 'number' ? p.exit_code : 1,
            ...(typeof p.error_kind === 'string' ? { errorKind: p.error_kind } : {}),
            nested: nested.has(id),
            preview: !streamed,
          }),
        );
        for (const line of options.artifacts?.(p.metadata) ?? []) write(`${nested.has(id) ? '    ' : ''}${line}\n`);
        return;
      }
      case 'permission_denied': {
        endLine(false);
        const id = str(p.tool_id);
        if (isRefusal(p)) stopped.refused++;
        else stopped.denied++;
        stoppedIds.add(id);
        if (!seen.has(id)) write(cardStart(style, str(p.tool_name), p.args, false));
        write(`${pad(id)}${stoppedLine(style, p)}\n`);
        return;
      }
      case 'run_continued':
        endLine(false);
        write(`${style.yellow(continuedLine(p))}\n`);
        return;
      case 'context_compacted':
        endLine(false);
        write(
          style.dim(
            `(context compacted: ${str(p.facts_folded)} facts into a ${str(p.summary_chars)}-character summary)\n`,
          ),
        );
        return;
      case 'model_retry':
        endLine(false);
        write(
          style.yellow(
            `model call failed (${str(p.code)}: ${str(p.message)}); retrying in ${(Number(p.delay_ms) / 1000).toFixed(1)} s (attempt ${Number(p.attempt) + 1} of ${str(p.max_attempts)})\n`,
          ),
        );
        return;
      case 'budget_threshold_hit':
        endLine(false);
        write(style.yellow(`budget ${str(p.budget)}: ${str(p.used)} of ${str(p.limit)} used\n`));
        return;
      case 'error':
        endLine(false);
        write(style.red(`error ${str(p.code)}: ${str(p.message)}\n`));
        return;
      case 'turn_end':
        endLine(false);
        return;
      case 'worker_spawned':
      case 'worker_progress':
      case 'worker_finished':
      case 'worker_failed':
      case 'worker_killed': {
        const line = workerLine(style, ev.type, p);
        if (line === undefined) return;
        endLine(false);
        write(line);
        return;
      }
      case 'events_dropped':
        endLine(false);
        write(
          `${style.dim(`(${String(p.dropped)} live output events left out: the display fell behind; the log has them all)`)}\n`,
        );
        return;
      case 'agent_end':
        endLine(false);
        if (p.ended_by === 'verification') {
          const [head = '', ...checks] = str(p.text).split('\n');
          write(`${style.green(`✓ ${head}`)}\n`);
          for (const line of checks) write(`  ${line}\n`);
        }
        ticker?.close();
        return;
      default:
        return;
    }
  }) as EventPrinter;
  print.newline = newline;
  Object.defineProperty(print, 'stopped', { get: () => stopped });
  print.reset = () => {
    stopped.refused = 0;
    stopped.denied = 0;
  };
  print.close = () => ticker?.close();
  return print;
}
