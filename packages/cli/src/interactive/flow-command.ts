/**
 * The `/ultracode` and `/research` commands of `a3s code`: each runs one of the CLI's dynamic
 * workflows as a host call of `dynamic_workflow`, printing its steps as they go and its result at
 * the end. The run id is printed first: after an interruption (or a crash), the same command with
 * `--run <id>` and the same text continues the run, keeping the steps that had finished — in the
 * session that started it (another is refused, `WORKFLOW_RUN_FOREIGN`), so from a new process the
 * hint reopens that session first.
 */
import { randomUUID } from 'node:crypto';
import type { Session } from '@a3s-code/sdk';
import type { WorkflowProgressEvent } from '@a3s-code/core';
import { terminalText } from '@a3s-code/core';
import type { Style } from '../style.js';

/** The flow commands. */
export const FLOW_COMMANDS: readonly string[] = ['/ultracode', '/research'];

/** Help lines of the flow commands. */
export const FLOW_HELP = `/ultracode <task>      plan, implement in parallel sub-agents, verify, summarise
/research <question>   search the web, read the pages, answer with sources
           (either with --run <id> first: continue that interrupted run of this session)`;

/** A parsed flow command, or the usage error to print. */
export type FlowCommand =
  | { readonly flow: 'ultracode' | 'research'; readonly query: string; readonly runId?: string }
  | { readonly error: string };

const RUN_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Parses `/ultracode [--run <id>] <text>` (or `/research`). */
export function parseFlowCommand(line: string): FlowCommand {
  const m = /^\/(ultracode|research)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (m === null) return { error: 'not a flow command' };
  const flow = m[1] as 'ultracode' | 'research';
  let rest = (m[2] ?? '').trim();
  let runId: string | undefined;
  if (/^--run(?:=\S*)?$/.test(rest) || rest.startsWith('--run='))
    return {
      error: `usage: /${flow} --run <id> <the same text> (--run needs the run id, then the text, with spaces between)`,
    };
  if (/^--[A-Za-z]/.test(rest) && !/^--run\s/.test(rest))
    return { error: `unknown option '${rest.split(/\s+/)[0]}'; /${flow} takes only --run <id>` };
  const run = /^--run\s+(\S+)\s*/.exec(rest);
  if (run !== null) {
    runId = run[1]!;
    if (!RUN_ID.test(runId)) return { error: `--run: '${runId}' is not a run id (1-128 of A-Z a-z 0-9 _ . : -)` };
    rest = rest.slice(run[0].length).trim();
  }
  if (rest === '') return { error: `usage: /${flow} [--run <id>] <${flow === 'ultracode' ? 'task' : 'question'}>` };
  return { flow, query: rest, ...(runId === undefined ? {} : { runId }) };
}

const MARK: Record<WorkflowProgressEvent['state'], string> = {
  started: '▸',
  completed: '✓',
  recovered: '↺',
  failed: '✗',
};

/** One progress line. */
export function progressLine(style: Style, e: WorkflowProgressEvent): string {
  const mark = MARK[e.state];
  const colour = e.state === 'failed' ? style.red : e.state === 'started' ? style.cyan : style.green;
  const what =
    e.state === 'recovered' ? ' (recovered from the earlier attempt)' : e.state === 'started' ? ` (${e.kind})` : '';
  const why = e.error === undefined ? '' : `: ${e.error.message}`;
  return `  ${colour(mark)} ${e.stepId}${style.dim(what)}${why}\n`;
}

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The readable result of a flow. */
export function renderFlowOutput(style: Style, flow: string, output: unknown): string {
  const o = (typeof output === 'object' && output !== null ? output : {}) as Json;
  const lines: string[] = [];
  if (flow === 'ultracode') {
    lines.push(str(o.summary ?? ''));
    for (const c of list(o.changes)) lines.push(`  • ${str(c)}`);
    const v = (o.verification ?? {}) as Json;
    lines.push(
      `${v.passed === true ? style.green('verification passed') : style.red('verification did not pass')}: ${str(v.evidence ?? '')}`,
    );
    for (const f of list(o.follow_ups)) lines.push(`  → ${str(f)}`);
  } else if (flow === 'research') {
    lines.push(str(o.answer ?? ''));
    for (const p of list(o.key_points)) lines.push(`  • ${str(p)}`);
    lines.push(style.dim(`confidence: ${str(o.confidence ?? 'unknown')}`));
    list(o.sources).forEach((s, i) => {
      const src = s as Json;
      lines.push(`  [${i + 1}] ${str(src.title ?? '')} — ${str(src.url ?? '')}`);
    });
    const dropped = list(o.dropped_sources);
    if (dropped.length > 0)
      lines.push(
        style.yellow(`  (dropped ${dropped.length} source(s) that were never read: ${dropped.map(str).join(', ')})`),
      );
  } else lines.push(JSON.stringify(output, null, 2));
  return `${lines.join('\n')}\n`;
}

/** What running a flow command needs from `a3s code`. */
export interface FlowHost {
  readonly session: Session;
  readonly write: (text: string) => void;
  readonly style: Style;
  /** Interrupts the flow (Ctrl-C): its running steps are cancelled, its finished ones kept for a continuation. */
  readonly signal?: AbortSignal;
  /**
   * The command line that reopens this session from a new process (`a3s sessions --resume <id> …`):
   * only the session that started a run continues it, so the hints name it.
   */
  readonly reopen?: string;
}

/** How to continue run `runId` from a new process: reopen the session that started it, then the command. */
function laterHint(host: FlowHost, command: { readonly flow: string }, runId: string): string {
  const again = `/${command.flow} --run ${runId} <the same text>`;
  return host.reopen === undefined
    ? `${again} in this session`
    : `from a new process: ${terminalText(host.reopen)}, then ${again}`;
}

/** A flow command that ran: how it ended, and the command (with its run id) that continues it. */
export interface FlowOutcome {
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly again: { readonly flow: 'ultracode' | 'research'; readonly query: string; readonly runId: string };
}

/** Runs a parsed flow command to its end (or its interruption) and prints what happened. */
export async function runFlowCommand(
  host: FlowHost,
  command: Exclude<FlowCommand, { error: string }>,
): Promise<FlowOutcome> {
  const { session, write, style, signal } = host;
  const runId = command.runId ?? `wf-${randomUUID()}`;
  const again = { flow: command.flow, query: command.query, runId };
  write(style.bold(`workflow ${command.flow}`) + style.dim(` · run ${runId}\n`));
  write(style.dim(`  (if it is interrupted: /resume continues it; ${laterHint(host, command, runId)})\n`));
  const r = await session.tool(
    'dynamic_workflow',
    { flow: command.flow, query: command.query, run_id: runId },
    signal === undefined ? {} : { signal },
  );
  const interrupted = (): FlowOutcome => {
    write(
      style.yellow(
        `workflow ${command.flow} interrupted · run ${runId}; /resume continues it (finished steps are kept); ${laterHint(host, command, runId)}\n`,
      ),
    );
    return { status: 'cancelled', again };
  };
  if (r.error !== undefined && !r.output.startsWith('{')) {
    if (signal?.aborted === true) return interrupted();
    write(style.red(`${r.error.code}: ${r.error.message}\n`));
    return { status: 'failed', again };
  }
  const body = JSON.parse(r.output) as {
    status: string;
    output?: unknown;
    steps: { status: string }[];
    error?: { step: string; message: string };
  };
  if (body.status === 'cancelled' || (body.status !== 'completed' && signal?.aborted === true)) return interrupted();
  const recovered = body.steps.filter((s) => s.status === 'recovered').length;
  // Steps after a failure are listed as skipped: the count says how many ran.
  const skipped = body.steps.filter((s) => s.status === 'skipped').length;
  if (body.status === 'completed') write(`\n${renderFlowOutput(style, command.flow, body.output)}`);
  else
    write(
      style.red(`workflow ${body.status}${body.error ? ` at step ${body.error.step}: ${body.error.message}` : ''}\n`),
    );
  write(
    style.dim(
      `${command.flow} ${body.status} · ${body.steps.length - skipped} step(s) run${recovered > 0 ? `, ${recovered} recovered` : ''}${skipped > 0 ? `, ${skipped} skipped` : ''} · run ${runId}\n`,
    ),
  );
  return { status: body.status === 'completed' ? 'completed' : 'failed', again };
}
