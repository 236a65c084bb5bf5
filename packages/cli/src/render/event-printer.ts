/**
 * Renders projected event envelopes for people: streamed text, a card per tool call, denials,
 * compactions and errors. Confirmations and questions are rendered by whoever answers them.
 */
import type { ProjectedEventV1 } from '@a3s-code/sdk';
import type { Style } from '../style.js';
import { cardEnd, cardStart } from './tool-card.js';

/** Where the printer writes. */
export interface Sink {
  write(text: string): unknown;
}

/** Prints events; `newline()` ends a line of streamed text if one is open. */
export interface EventPrinter {
  (ev: ProjectedEventV1): void;
  newline(): void;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** Creates a printer writing to `out`. */
export function createEventPrinter(out: Sink, style: Style): EventPrinter {
  let midLine = false;
  const newline = (): void => {
    if (midLine) out.write('\n');
    midLine = false;
  };
  const print = ((ev: ProjectedEventV1) => {
    const p = ev.payload;
    switch (ev.type) {
      case 'text_delta': {
        const text = ev.text ?? '';
        if (text === '') return;
        out.write(text);
        midLine = !text.endsWith('\n');
        return;
      }
      case 'tool_start':
        newline();
        out.write(cardStart(style, str(p.name), p.args, p.source === 'nested' || p.source === 'host_nested'));
        return;
      case 'tool_end':
        out.write(
          cardEnd(style, {
            name: str(p.name),
            output: str(p.output),
            exitCode: typeof p.exit_code === 'number' ? p.exit_code : 1,
            ...(typeof p.error_kind === 'string' ? { errorKind: p.error_kind } : {}),
            nested: p.source === 'nested' || p.source === 'host_nested',
          }),
        );
        return;
      case 'permission_denied':
        newline();
        out.write(`  ${style.yellow('⊘ denied')} ${str(p.tool_name)}: ${str(p.reason)}\n`);
        return;
      case 'context_compacted':
        newline();
        out.write(style.dim(`(context compacted: ${str(p.facts_folded)} facts into a ${str(p.summary_chars)}-character summary)\n`));
        return;
      case 'budget_threshold_hit':
        newline();
        out.write(style.yellow(`budget ${str(p.budget)}: ${str(p.used)} of ${str(p.limit)} used\n`));
        return;
      case 'error':
        newline();
        out.write(style.red(`error ${str(p.code)}: ${str(p.message)}\n`));
        return;
      case 'turn_end':
        newline();
        return;
      default:
        return;
    }
  }) as EventPrinter;
  print.newline = newline;
  return print;
}
