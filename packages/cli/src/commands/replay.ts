/**
 * `a3s replay <log-or-thread>`: the phase timeline, the tool table, tokens and errors of a fact
 * log, computed with `@a3s-code/effect` alone (no session, no model, no tool runs).
 */
import { formatSummary } from '@a3s-code/effect';
import { resolve } from 'node:path';
import { parse } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { loadLog, resolveLog, type LoadedLog } from '../logs.js';
import { continuedLine } from '../render/event-printer.js';
import { styleFor, type Style } from '../style.js';

/** Help of `a3s replay`. */
export const REPLAY_HELP = `Usage: a3s replay [options] <log-file | session-id>

Folds a fact log and prints its runs, phase timeline, tool table, token usage and errors.

Options:
  -C, --cwd <dir>   workspace whose .a3s/effect-log holds the session (default: the current folder)
      --json        print the summary (effect's LogSummary) as JSON
  -h, --help        show this help`;

/**
 * The tool calls of a log in order, from its facts: `#  tool  status  arguments  first output line`,
 * with each extra turn the completion gate or a stop hook asked for (`↻ …`) where it happened.
 */
function toolTable(style: Style, log: LoadedLog): string[] {
  const rows: string[] = [];
  const args = new Map<string, unknown>();
  let calls = 0;
  let attempts = new Map<string, number>();
  for (const fact of log.facts) {
    const p = fact.payload as Record<string, unknown>;
    if (fact.type === 'run.started') attempts = new Map();
    else if (fact.type === 'user.message' && p.source === 'continuation') {
      const origin = typeof p.origin === 'string' ? p.origin : fact.key.startsWith('stop-hook:') ? 'stop_hook' : 'completion_gate';
      const attempt = (attempts.get(origin) ?? 0) + 1;
      attempts.set(origin, attempt);
      rows.push(`      ${style.yellow(continuedLine({ origin, reason: p.reason ?? p.text, attempt }))}`);
    } else if (fact.type === 'model.turn') {
      const d = p.decision as { kind?: string; calls?: { id: string; args: unknown }[] } | undefined;
      if (d?.kind === 'tool') for (const c of d.calls ?? []) args.set(c.id, c.args);
    } else if (fact.type === 'tool.result') {
      const output = typeof p.output === 'string' ? p.output : '';
      const first = (output.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 70);
      const status = p.ok === true ? style.green('ok    ') : style.red('failed');
      const shown = JSON.stringify(args.get(String(p.tool_call_id)) ?? {}).slice(0, 60);
      rows.push(`  ${String(++calls).padStart(2)}  ${String(p.name).padEnd(10)} ${status}  ${shown.padEnd(60)}  ${style.dim(first)}`);
    }
  }
  return rows;
}

/** Runs `a3s replay`. */
export async function replayCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { cwd: { type: 'string', short: 'C' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, 'replay');
  if (values.help) {
    io.stdout.write(`${REPLAY_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(`expected exactly one log file or session id, got ${positionals.length}; see 'a3s replay --help'`);
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  const log = loadLog(resolveLog(positionals[0]!, workspace, io.cwd));
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ path: log.path, digest: log.digest, summary: log.summary })}\n`);
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  const lines = [style.bold(`A3S Code replay of ${log.path}`), `digest: seq ${log.digest.seq}, sha256 ${log.digest.digest}`];
  if (log.torn) lines.push(style.yellow(`note: ignored a torn last line (${log.torn})`));
  lines.push(formatSummary(log.summary));
  const table = toolTable(style, log);
  if (table.length > 0) lines.push('tool table:', ...table);
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
