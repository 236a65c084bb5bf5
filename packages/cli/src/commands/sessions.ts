/**
 * `a3s sessions`: the session logs of a workspace (`.a3s/effect-log/*.jsonl`), newest first, each
 * summarised with `@a3s-code/effect`; `--resume <id>` continues one in `a3s code`.
 */
import { resolve } from 'node:path';
import { parse, SESSION_FLAGS, SESSION_FLAGS_HELP } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { listLogs, loadLog, resolveLog } from '../logs.js';
import { styleFor } from '../style.js';
import { codeCommand } from './code.js';

/** Help of `a3s sessions`. */
export const SESSIONS_HELP = `Usage: a3s sessions [options]

Lists the sessions of the workspace (their fact logs under .a3s/effect-log), newest first.

Options:
      --resume <id>    continue that session interactively (a3s code), resuming a parked or interrupted run
      --json           print the list as JSON
${SESSION_FLAGS_HELP}`;

/** The first user prompt of a log, for the list. */
function firstPrompt(facts: readonly { type: string; payload: unknown }[]): string {
  for (const f of facts) {
    const p = f.payload as { text?: unknown; source?: unknown };
    if (f.type === 'user.message' && p.source === 'user' && typeof p.text === 'string') return p.text.replace(/\s+/g, ' ').slice(0, 60);
  }
  return '';
}

/** Runs `a3s sessions`. */
export async function sessionsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parse(args, { ...SESSION_FLAGS, resume: { type: 'string' }, json: { type: 'boolean' } }, 'sessions');
  if (values.help) {
    io.stdout.write(`${SESSIONS_HELP}\n`);
    return EXIT.ok;
  }
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  if (values.resume !== undefined) {
    if (values.resume.trim() === '') throw new UsageError('--resume: needs a session id (see a3s sessions)');
    resolveLog(values.resume, workspace, workspace);
    const rest = args.filter((a, i) => a !== '--resume' && args[i - 1] !== '--resume' && !a.startsWith('--resume=') && a !== '--json');
    return codeCommand(rest, io, { sessionId: values.resume });
  }
  const rows = listLogs(workspace).map((entry) => {
    const log = loadLog(entry.path);
    const last = log.summary.runs.at(-1);
    return {
      id: entry.thread,
      modified: new Date(entry.modifiedMs).toISOString(),
      facts: log.summary.facts,
      runs: log.summary.runs.length,
      last: last ? `${last.status}${last.completion ? ` (${last.completion})` : ''}` : 'no runs',
      phase: log.summary.final_phase,
      prompt: firstPrompt(log.facts),
    };
  });
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows)}\n`);
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  if (rows.length === 0) {
    io.stdout.write(`no sessions under ${workspace}/.a3s/effect-log\n`);
    return EXIT.ok;
  }
  for (const r of rows) {
    io.stdout.write(`${style.bold(r.id)}  ${style.dim(r.modified)}  ${r.runs} run(s), last ${r.last}, ${r.facts} facts, phase ${r.phase}\n`);
    if (r.prompt) io.stdout.write(style.dim(`    "${r.prompt}"\n`));
  }
  io.stdout.write(style.dim(`resume one with: a3s sessions --resume <id>\n`));
  return EXIT.ok;
}
