/**
 * `a3s sessions`: the sessions of a workspace, newest first — their fact logs
 * (`.a3s/effect-log/*.jsonl`, summarised with `@a3s-code/effect`) and their saved snapshots
 * (`.a3s/sessions/*.json`, core's file session store). `--resume <id>` reopens a saved session
 * (`agent.resumeSession`) or continues a log in `a3s code`.
 */
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { FileSessionStore, terminalText } from '@a3s-code/core';
import { effectLogPath } from '@a3s-code/effect';
import { noPositionals, parse, SESSION_FLAGS, SESSION_FLAGS_HELP } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkStateRoot } from '../state-root.js';
import { flagWords } from '../shell-quote.js';
import { styleFor } from '../style.js';
import { codeCommand } from './code.js';
import { sessionRows, type SessionRow } from './sessions-rows.js';

/** Sessions listed when neither `--limit` nor `--all` is given (text output). */
const DEFAULT_LIMIT = 50;

/** Help of `a3s sessions`. */
export const SESSIONS_HELP = `Usage: a3s sessions [options]

Lists the sessions of the workspace, newest first: their fact logs (.a3s/effect-log) and the
sessions saved with /save or session.save() (.a3s/sessions).

Options:
      --resume <id>    reopen that session interactively (a3s code): a saved session is restored
                       from its snapshot; otherwise its log continues (a parked or interrupted run resumes)
      --limit <n>      list the newest n sessions (default ${DEFAULT_LIMIT}; --json lists all unless given)
      --all            list every session (reads every log: slow with thousands of them)
      --json           print the list as JSON
${SESSION_FLAGS_HELP}

--model, --yolo, --plan, --vibe, --vibe-tier, --trust-workspace and --ignore-workspace-config apply only with --resume.`;

/**
 * The last run's state as listed: a run still open in a log nobody has open was cut off (a crash,
 * a kill), and says how to continue it; one whose log a live process holds is running there.
 */
function lastShown(r: SessionRow): string {
  if (r.interrupted)
    return `interrupted (its process ended mid-run; continue it with a3s sessions ${terminalText(flagWords('--resume', resumeName(r)))})`;
  return r.last;
}

/** Ids longer than this are shown cut, with an ellipsis. */
const SHOWN_ID_CHARS = 60;

/** `id` as one line of a terminal shows it: controls (newlines and tabs too) made visible, cut after {@link SHOWN_ID_CHARS} characters. */
function shownId(id: string): string {
  const visible = terminalText(id).replace(/\n/g, '^J').replace(/\t/g, '^I');
  const chars = Array.from(visible);
  return chars.length > SHOWN_ID_CHARS ? `${chars.slice(0, SHOWN_ID_CHARS - 1).join('')}…` : visible;
}

/**
 * The session's name in the list: the id it was opened with, and after it the log's hashed name
 * when the id cannot be shown as it is (cut, or with controls made visible), so that two sessions
 * never look alike and the one shown can be reopened by the name printed.
 */
function rowName(r: SessionRow): string {
  const shown = shownId(r.id);
  return shown === r.id || r.thread === undefined ? shown : `${shown} (${r.thread})`;
}

/** The name `--resume` is given in a hint: the id, or the log's name when the id cannot be shown as it is. */
function resumeName(r: SessionRow): string {
  return shownId(r.id) === r.id || r.thread === undefined ? r.id : r.thread;
}

/**
 * How many sessions to read and list: `--limit <n>` (a whole number from 1), every one with
 * `--all`, or by default {@link DEFAULT_LIMIT} in text and every one in JSON.
 * @throws UsageError for a limit that is no whole number from 1, or `--limit` with `--all`.
 */
function listLimit(limit: string | undefined, all: boolean, json: boolean): number | undefined {
  if (limit === undefined) return all || json ? undefined : DEFAULT_LIMIT;
  if (all) throw new UsageError('--limit and --all cannot be used together: --all lists every session');
  const n = /^\d{1,9}$/.test(limit.trim()) ? Number(limit.trim()) : Number.NaN;
  if (!(n >= 1))
    throw new UsageError(
      `--limit: '${terminalText(limit)}' is not a whole number from 1 (the newest sessions to list)`,
    );
  return n;
}

/** Runs `a3s sessions`. */
export async function sessionsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ...SESSION_FLAGS,
      resume: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
    },
    'sessions',
  );
  if (values.help) {
    io.stdout.write(`${SESSIONS_HELP}\n`);
    return EXIT.ok;
  }
  noPositionals(positionals, 'sessions', ' (a session id goes after --resume)');
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`--cwd: '${workspace}' is not a folder`);
  checkStateRoot(workspace, true);
  if (values.resume !== undefined) {
    const id = values.resume;
    if (id.trim() === '') throw new UsageError('--resume: needs a session id (see a3s sessions)');
    const listing = values.json ? '--json' : values.limit !== undefined ? '--limit' : values.all ? '--all' : undefined;
    if (listing !== undefined)
      throw new UsageError(
        `${listing} and --resume cannot be used together: ${listing} ${listing === '--json' ? 'prints' : 'shapes'} the list, --resume reopens one session interactively`,
      );
    // A saved session that cannot be read is named, never taken for a missing one.
    let unreadable: unknown;
    const snapshot = await new FileSessionStore(workspace).loadSnapshot(id).catch((e: unknown) => {
      unreadable = e;
      return undefined;
    });
    const isSaved = snapshot !== undefined;
    const hasLog = existsSync(join(workspace, effectLogPath(id)));
    if (unreadable !== undefined && !hasLog) throw unreadable;
    if (unreadable !== undefined)
      io.stderr.write(
        `warning: the saved session '${terminalText(id)}' cannot be read (${terminalText((unreadable as Error).message)}); continuing its fact log instead\n`,
      );
    if (!isSaved && !hasLog) {
      throw new UsageError(
        `--resume: no session '${id}' under ${workspace}: neither a saved session (.a3s/sessions) nor a fact log (.a3s/effect-log); list them with 'a3s sessions'`,
      );
    }
    const rest = args.filter((a, i) => a !== '--resume' && args[i - 1] !== '--resume' && !a.startsWith('--resume='));
    return codeCommand(rest, io, isSaved ? { resume: id } : { sessionId: id });
  }
  // The session flags shape the reopened session: without --resume they would do nothing.
  const idle = (
    ['model', 'yolo', 'plan', 'vibe', 'vibe-tier', 'trust-workspace', 'ignore-workspace-config'] as const
  ).find((f) => values[f] !== undefined);
  if (idle !== undefined)
    throw new UsageError(
      `--${idle} applies only with --resume <id> (the session it reopens); a3s sessions without --resume lists the sessions, and takes --cwd, --limit, --all and --json`,
    );
  const limit = listLimit(values.limit, values.all === true, values.json === true);
  const { rows: list, older } = await sessionRows(workspace, limit);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(list)}\n`);
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  if (list.length === 0 && older === 0) {
    io.stdout.write(`no sessions under ${workspace}/.a3s\n`);
    return EXIT.ok;
  }
  // A session opened and left without a prompt has an empty log: counted, not listed (--json lists it).
  const empty = list.filter((r) => r.facts === 0 && r.saved === null && r.last === 'no runs');
  for (const r of list) {
    if (empty.includes(r)) continue;
    const saved = r.saved ? style.green(' saved') : '';
    // A damaged log's parse error quotes its bytes: shown without control sequences.
    const state = r.last.startsWith('unreadable')
      ? style.yellow(terminalText(r.last))
      : r.runs === 0
        ? `no runs yet, ${r.facts} facts`
        : `${r.runs} run(s), last ${lastShown(r)}, ${r.facts} facts, phase ${r.phase}${r.subagentLogs > 0 ? `, ${r.subagentLogs} subagent log(s)` : ''}`;
    // A session another process has open is said first: it cannot be resumed until that one ends.
    const inUse =
      r.inUseBy === null
        ? ''
        : `${style.yellow(`in use by process ${r.inUseBy.pid}${r.inUseBy.host === hostname() ? '' : ` on ${terminalText(r.inUseBy.host)}`}`)}, `;
    // A log changed after its session stopped is refused when resumed: said before that is tried.
    const changed =
      r.changed === undefined
        ? ''
        : style.yellow(`, log changed after its session stopped (${terminalText(r.changed)})`);
    io.stdout.write(`${style.bold(rowName(r))}${saved}  ${style.dim(r.modified)}  ${inUse}${state}${changed}\n`);
    if (r.prompt) io.stdout.write(style.dim(`    "${terminalText(r.prompt)}"\n`));
  }
  if (empty.length > 0)
    io.stdout.write(style.dim(`(${empty.length} session(s) opened without a prompt not listed; --json lists them)\n`));
  if (older > 0)
    io.stdout.write(style.dim(`(${older} older session(s) not listed; --limit <n> lists more, --all every one)\n`));
  if (list.some((r) => !empty.includes(r) && !r.last.startsWith('unreadable')))
    io.stdout.write(style.dim(`resume one with: a3s sessions --resume <id>\n`));
  return EXIT.ok;
}
