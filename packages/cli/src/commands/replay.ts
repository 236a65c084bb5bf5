/**
 * `a3s replay <log-or-thread>`: the phase timeline, the tool table, tokens and errors of a fact
 * log, computed with `@a3s-code/effect` alone (no session, no model, no tool runs).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { formatCost, isInterruptedChange, type ModelPricing } from '@a3s-code/core';
import { A3sError, formatSummary } from '@a3s-code/effect';
import { parse } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { logCost, workspacePricing, type LogCost } from '../cost.js';
import { loadLog, resolveLog, workspaceOfLog, type LoadedLog } from '../logs.js';
import { artifactLine, artifactPath, artifactsOf } from '../render/artifacts.js';
import { continuedLine } from '../render/event-printer.js';
import { styleFor, type Style } from '../style.js';
import { terminalText } from '@a3s-code/core';
import { terminalSafe } from '../render/terminal-text.js';
import { transcriptLines, transcriptOf } from '../render/transcript.js';

/** Help of `a3s replay`. */
export const REPLAY_HELP = `Usage: a3s replay [options] <log-file | session-id | folder>

Folds a fact log and prints its runs, phase timeline, tool table, the artifacts its results
reference (an eval cell's images: media type, size, where a3s run or a3s code saved them), token
usage (with its cost when the workspace's a3s.config.json prices the model), the attachments of
each turn and errors. A folder means its newest log.

With --transcript it prints the conversation instead: each prompt, the model's answers, each
tool call with its arguments and its result summarised (first line, size), questions and their
answers, and how each run ended.

Options:
  -C, --cwd <dir>   workspace whose .a3s/effect-log holds the session (default: the current folder)
      --transcript  print the conversation instead of the summary
      --json        print the summary (effect's LogSummary) as JSON; with --transcript, the
                    conversation as {"path", "digest", "transcript": [entries]}
      --web         serve the log in the web viewer on 127.0.0.1 (random port; prints the URL,
                    opens nothing, read-only; Ctrl-C to stop: exit 130, SIGTERM: 143)
  -h, --help        show this help`;

/** A note for each time a session found its log changed by another process and wrote it back. */
function restoredNotes(style: Style, log: LoadedLog): string[] {
  const notes: string[] = [];
  for (const fact of log.facts) {
    if (fact.type !== 'log.restored') continue;
    const p = terminalSafe(fact.payload) as Record<string, unknown>;
    const found = typeof p.found === 'string' ? p.found : 'changed';
    notes.push(
      style.yellow(
        `note: before fact ${fact.seq} the file was ${terminalText(found)} by another process while a session held it; the session wrote its own log back, and nothing from outside it is in this log`,
      ),
    );
  }
  return notes;
}

/**
 * The tool calls of a log in order, from its facts: `#  tool  status  arguments  first output line`,
 * with each extra turn the completion gate or a stop hook asked for (`↻ …`) where it happened, and
 * under a call that ran again on resume because the process stopped while it ran, a note (`↺ …`).
 */
function toolTable(style: Style, log: LoadedLog): string[] {
  const rows: string[] = [];
  const args = new Map<string, unknown>();
  let calls = 0;
  let attempts = new Map<string, number>();
  for (const fact of log.facts) {
    const p = terminalSafe(fact.payload) as Record<string, unknown>;
    if (fact.type === 'run.started') attempts = new Map();
    else if (fact.type === 'user.message' && p.source === 'continuation') {
      const origin =
        typeof p.origin === 'string' ? p.origin : fact.key.startsWith('stop-hook:') ? 'stop_hook' : 'completion_gate';
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
      rows.push(
        `  ${String(++calls).padStart(2)}  ${String(p.name).padEnd(10)} ${status}  ${shown.padEnd(60)}  ${style.dim(first)}`,
      );
      if (interrupted(p.metadata))
        rows.push(
          `      ${style.yellow('↺ re-run on resume: the process stopped while this call ran; what that attempt changed is unknown')}`,
        );
    }
  }
  return rows;
}

/** True when a result's change record holds an attempt a crash interrupted (the call ran again on resume). */
function interrupted(metadata: unknown): boolean {
  const record = (metadata as { change_record?: unknown } | null | undefined)?.change_record;
  return (
    Array.isArray(record) &&
    record.some((e: { digest?: unknown }) => typeof e?.digest === 'string' && isInterruptedChange(e.digest))
  );
}

/** A note for each attachment whose bytes are not in the workspace's artifact folder (a resume would fail on it). */
function missingArtifacts(style: Style, log: LoadedLog, workspace: string | undefined): string[] {
  if (workspace === undefined) return [];
  return (log.summary.attachments ?? [])
    .filter((a) => !existsSync(join(workspace, '.a3s', 'artifacts', a.sha256)))
    .map((a) =>
      style.yellow(
        `note: the artifact of ${terminalText(a.name ?? a.sha256)} (turn ${a.turn}) is missing from .a3s/artifacts`,
      ),
    );
}

/**
 * The artifacts the log's tool results reference (an `eval` cell's images), each with its media
 * type, size and where the CLI saved it (or would have, when the file is not there).
 */
function artifactRows(style: Style, log: LoadedLog): string[] {
  const workspace = workspaceOfLog(log.path);
  const thread = basename(log.path, '.jsonl');
  const rows: string[] = [];
  let calls = 0;
  for (const fact of log.facts) {
    if (fact.type !== 'tool.result') continue;
    calls++;
    const p = terminalSafe(fact.payload) as Record<string, unknown>;
    for (const a of artifactsOf(p.metadata)) {
      const path = workspace === undefined ? undefined : artifactPath(workspace, thread, a);
      const shown = path === undefined ? `artifact://${a.id}` : relative(workspace!, path);
      const note = path === undefined ? '' : existsSync(path) ? '(saved)' : '(not saved)';
      rows.push(`${artifactLine(style, a, shown, note)}  ${style.dim(`call ${calls} ${String(p.name)}`)}`);
    }
  }
  return rows;
}

/** `cost: $0.0123 (openai/gpt-4o $0.0123)`, or `undefined` when no model of the log has a price. */
function costText(cost: LogCost): string | undefined {
  const priced = Object.entries(cost.by_model);
  if (priced.length === 0) return undefined;
  const parts = priced.map(([model, c]) => `${model} ${formatCost(c)}`);
  if (cost.unpriced.length > 0) parts.push(`no price for ${cost.unpriced.join(', ')}`);
  return `cost: ${cost.total === null ? 'partial' : formatCost(cost.total)} (${parts.join('; ')})`;
}

/**
 * The prices of `workspace`'s config file. A config file that does not load costs the replay only
 * its cost line: the log is still shown, and the reason is one warning on stderr.
 */
async function pricingFor(workspace: string, io: Io): Promise<ModelPricing> {
  try {
    return await workspacePricing(workspace);
  } catch (e) {
    const code = A3sError.isInstance(e) ? `${e.code}: ` : '';
    io.stderr.write(`warning: no cost shown: ${code}${terminalText((e as Error).message)}\n`);
    return {};
  }
}

/** The warning a log changed after its session stopped gets: its facts may not all be that session's. */
function changedWarning(changed: string): string {
  return `warning: this log was changed after its session stopped (${terminalText(changed)}); the facts shown may not all be its session's`;
}

/** `{ changed }` for the JSON of a log changed after its session stopped, else nothing. */
function changedField(log: LoadedLog): { changed?: string } {
  return log.changed === undefined ? {} : { changed: log.changed };
}

/** Prints the conversation of `log` (`--transcript`), as text or as one JSON object. */
function printTranscript(log: LoadedLog, json: boolean, io: Io): number {
  const entries = transcriptOf(log.facts);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ path: log.path, digest: log.digest, ...changedField(log), transcript: entries })}\n`,
    );
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  const lines = [style.bold(`A3S Code transcript of ${terminalText(log.path)}`)];
  if (log.torn) lines.push(style.yellow(`note: ignored a torn last line (${terminalText(log.torn)})`));
  if (log.changed) lines.push(style.yellow(changedWarning(log.changed)));
  if (entries.length === 0) lines.push(style.yellow('note: the log holds no conversation'));
  lines.push(...transcriptLines(style, entries));
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** Runs `a3s replay`. */
export async function replayCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      cwd: { type: 'string', short: 'C' },
      json: { type: 'boolean' },
      web: { type: 'boolean' },
      transcript: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'replay',
  );
  if (values.help) {
    io.stdout.write(`${REPLAY_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `expected exactly one log file or session id, got ${positionals.length}; see 'a3s replay --help'`,
    );
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  if (values.cwd !== undefined && (!existsSync(workspace) || !statSync(workspace).isDirectory()))
    throw new UsageError(`--cwd: '${workspace}' is not a folder`);
  if (values.web && values.json) throw new UsageError('--web and --json cannot be used together');
  if (values.web && values.transcript)
    throw new UsageError('--web and --transcript cannot be used together (the viewer shows the conversation)');
  const path = resolveLog(positionals[0]!, workspace, io.cwd);
  if (values.web) {
    await loadLog(path); // a file that is no fact log is named now, not in the browser
    const pricing = await pricingFor(values.cwd === undefined ? (workspaceOfLog(path) ?? workspace) : workspace, io);
    const { serveUntilStopped } = await import('./replay-web.js');
    // Stopped by Ctrl-C, SIGTERM or SIGHUP: 130, 143 or 129, as every command; the reader of stdout going
    // away (`| head -1`, watched while nothing is written): 0, as when a run's reader goes away.
    const stopWatching = io.watchStdoutReader?.() ?? (() => undefined);
    try {
      const stop = await serveUntilStopped(
        { logPath: path, pricing },
        (line) => io.stdout.write(`${line}\n`),
        io.stdoutClosed,
      );
      if (stop === 'aborted') return EXIT.ok;
      return stop === 'SIGINT' ? EXIT.cancelled : stop === 'SIGTERM' ? EXIT.terminated : EXIT.hangup;
    } finally {
      stopWatching();
    }
  }
  const log = await loadLog(path);
  if (values.transcript) return printTranscript(log, values.json === true, io);
  const cost = logCost(
    log.facts,
    await pricingFor(values.cwd === undefined ? (workspaceOfLog(log.path) ?? workspace) : workspace, io),
  );
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ path: log.path, digest: log.digest, ...changedField(log), summary: log.summary, cost })}\n`,
    );
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  const lines = [
    style.bold(`A3S Code replay of ${terminalText(log.path)}`),
    `digest: seq ${log.digest.seq}, sha256 ${log.digest.digest}`,
  ];
  // A log's text came from a model and its tools (or anyone who could write the file): printed
  // without control sequences, the torn line's bytes quoted in its parse error included.
  if (log.torn) lines.push(style.yellow(`note: ignored a torn last line (${terminalText(log.torn)})`));
  if (log.changed) lines.push(style.yellow(changedWarning(log.changed)));
  if (log.facts.length === 0 && !log.torn)
    lines.push(style.yellow('note: the log holds no facts (a session opened and closed before its first prompt)'));
  lines.push(...restoredNotes(style, log));
  lines.push(formatSummary(terminalSafe(log.summary)));
  lines.push(...missingArtifacts(style, log, workspaceOfLog(log.path)));
  const costLine = costText(cost);
  if (costLine !== undefined) lines.push(terminalText(costLine));
  const table = toolTable(style, log);
  if (table.length > 0) lines.push('tool table:', ...table);
  const artifacts = artifactRows(style, log);
  if (artifacts.length > 0) lines.push('artifacts:', ...artifacts);
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
