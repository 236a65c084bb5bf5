/**
 * `a3s sessions`: the sessions of a workspace, newest first — their fact logs
 * (`.a3s/effect-log/*.jsonl`, summarised with `@a3s-code/effect`) and their saved snapshots
 * (`.a3s/sessions/*.json`, core's file session store). `--resume <id>` reopens a saved session
 * (`agent.resumeSession`) or continues a log in `a3s code`.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { FileSessionStore, recordedSessionId } from '@a3s-code/core';
import { effectLogPath, threadIdFor, type LogSummary } from '@a3s-code/effect';
import { noPositionals, parse, SESSION_FLAGS, SESSION_FLAGS_HELP } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { logHolder, type LogHolder } from '../log-lock.js';
import { listLogs, loadLog } from '../logs.js';
import { checkStateRoot } from '../state-root.js';
import { flagWords } from '../shell-quote.js';
import { styleFor } from '../style.js';
import { terminalText } from '@a3s-code/core';
import { codeCommand } from './code.js';

/** Help of `a3s sessions`. */
export const SESSIONS_HELP = `Usage: a3s sessions [options]

Lists the sessions of the workspace, newest first: their fact logs (.a3s/effect-log) and the
sessions saved with /save or session.save() (.a3s/sessions).

Options:
      --resume <id>    reopen that session interactively (a3s code): a saved session is restored
                       from its snapshot; otherwise its log continues (a parked or interrupted run resumes)
      --json           print the list as JSON
${SESSION_FLAGS_HELP}

--model, --yolo, --plan, --vibe, --vibe-tier, --trust-workspace and --ignore-workspace-config apply only with --resume.`;

/** One row of the list. */
interface SessionRow {
  /** The id the session was opened with (also when its log is named by a hash of it). */
  readonly id: string;
  /** The name of the session's log (`.a3s/effect-log/<thread>.jsonl`) when it is not `id`: a hash of an id that is no safe file name. */
  readonly thread?: string;
  readonly modified: string;
  /** When the session was last saved, if it was. */
  readonly saved: string | null;
  readonly facts: number;
  readonly runs: number;
  /** The logs of the subagents it delegated to (`<thread>.task-<n>`, `<thread>.worker-<n>`), listed with it, not as sessions. */
  readonly subagentLogs: number;
  readonly last: string;
  readonly phase: string;
  readonly prompt: string;
  /** The live process that has the session's log open (an `a3s run` or `a3s code` on it), if any. */
  readonly inUseBy: LogHolder | null;
  /**
   * The last run is open in the log (`last` is `running`) but no process has the log open: it was
   * cut off (a crash, a kill) and `a3s sessions --resume <id>` continues it.
   */
  readonly interrupted: boolean;
}

/** The first user prompt of a log, for the list. */
function firstPrompt(facts: readonly { type: string; payload: unknown }[]): string {
  for (const f of facts) {
    const p = f.payload as { text?: unknown; source?: unknown };
    if (f.type === 'user.message' && p.source === 'user' && typeof p.text === 'string')
      return p.text.replace(/\s+/g, ' ').slice(0, 60);
  }
  return '';
}

/** The state of a log's last run: `completed (verified)`, `parked (confirm)`, `cancelled`, ... */
function lastText(summary: LogSummary): string {
  if (summary.parked !== null) return `parked (${summary.parked.phase})`;
  const last = summary.runs.at(-1);
  return last ? `${last.status}${last.completion ? ` (${last.completion})` : ''}` : 'no runs';
}

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

/** The id a log was opened with: a saved session's, else the one recorded beside a hashed log, else the log's name. */
async function idOf(entry: { readonly thread: string; readonly path: string }, saved?: string): Promise<string> {
  if (saved !== undefined) return saved;
  return (await recordedSessionId(entry.path).catch(() => undefined)) ?? entry.thread;
}

/** The session thread a subagent's log belongs to (`<thread>.task-3` → `<thread>`), when that session's log is there. */
function parentThread(thread: string, threads: ReadonlySet<string>): string | undefined {
  const m = /^(.+)\.(?:task|worker)-\d+$/.exec(thread);
  return m !== null && threads.has(m[1]!) ? m[1] : undefined;
}

async function rows(workspace: string): Promise<SessionRow[]> {
  const saved = await new FileSessionStore(workspace).listSessions();
  const savedByThread = new Map(saved.map((s) => [threadIdFor(s.sessionId), s] as const));
  const out: SessionRow[] = [];
  const logs = listLogs(workspace);
  const threads = new Set(logs.map((l) => l.thread));
  const children = new Map<string, number>();
  for (const l of logs) {
    const parent = parentThread(l.thread, threads);
    if (parent !== undefined) children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  for (const entry of logs) {
    if (parentThread(entry.thread, threads) !== undefined) continue;
    const subagentLogs = children.get(entry.thread) ?? 0;
    const save = savedByThread.get(entry.thread);
    savedByThread.delete(entry.thread);
    const id = await idOf(entry, save?.sessionId);
    const named = id === entry.thread ? { id } : { id, thread: entry.thread };
    let log: Awaited<ReturnType<typeof loadLog>>;
    try {
      log = await loadLog(entry.path);
    } catch (e) {
      // One damaged log does not hide the others: its row says what is wrong with it.
      const modified = new Date(Math.max(entry.modifiedMs, save?.updatedAtMs ?? 0)).toISOString();
      const why = (e as Error).message.replace(/ \(in [^)]*\)$/, '');
      out.push({
        ...named,
        modified,
        saved: save ? new Date(save.updatedAtMs).toISOString() : null,
        facts: 0,
        runs: 0,
        subagentLogs,
        last: `unreadable log: ${why}`,
        phase: '-',
        prompt: '',
        inUseBy: logHolder(entry.path) ?? null,
        interrupted: false,
      });
      continue;
    }
    const inUseBy = logHolder(entry.path) ?? null;
    const last = lastText(log.summary);
    out.push({
      ...named,
      modified: new Date(Math.max(entry.modifiedMs, save?.updatedAtMs ?? 0)).toISOString(),
      saved: save ? new Date(save.updatedAtMs).toISOString() : null,
      facts: log.summary.facts,
      runs: log.summary.runs.length,
      subagentLogs,
      last,
      phase: log.summary.final_phase,
      prompt: firstPrompt(log.facts),
      inUseBy,
      interrupted: last === 'running' && inUseBy === null,
    });
  }
  // Saved sessions without a log (memory persistence, or a deleted log).
  for (const s of savedByThread.values()) {
    const at = new Date(s.updatedAtMs).toISOString();
    const thread = threadIdFor(s.sessionId);
    out.push({
      ...(thread === s.sessionId ? { id: s.sessionId } : { id: s.sessionId, thread }),
      modified: at,
      saved: at,
      facts: 0,
      runs: 0,
      subagentLogs: 0,
      last: 'no log',
      phase: '-',
      prompt: '',
      inUseBy: null,
      interrupted: false,
    });
  }
  out.push(...(await unreadableSnapshots(workspace, saved, logs)));
  return out.sort((a, b) => b.modified.localeCompare(a.modified) || a.id.localeCompare(b.id));
}

/**
 * The snapshot files of `.a3s/sessions` the store skips (damaged, a foreign shape, a folder) and
 * no log stands for: listed as unreadable with the reason loading them gives, not hidden.
 */
async function unreadableSnapshots(
  workspace: string,
  saved: readonly { readonly sessionId: string }[],
  logs: readonly { readonly thread: string }[],
): Promise<SessionRow[]> {
  const store = new FileSessionStore(workspace);
  const known = new Set([...saved.map((s) => store.pathOf(s.sessionId)), ...logs.map((l) => store.pathOf(l.thread))]);
  let names: string[];
  try {
    names = readdirSync(store.folder);
  } catch {
    return [];
  }
  const out: SessionRow[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const id = name.slice(0, -'.json'.length);
    if (known.has(join(store.folder, name)) || store.pathOf(id) !== join(store.folder, name)) continue;
    const why = await store.loadSnapshot(id).then(
      () => undefined,
      (e: unknown) => (e as Error).message,
    );
    if (why === undefined) continue;
    const modified = new Date(lstatSync(join(store.folder, name)).mtimeMs).toISOString();
    out.push({
      id,
      modified,
      saved: null,
      facts: 0,
      runs: 0,
      subagentLogs: 0,
      last: `unreadable snapshot: ${why}`,
      phase: '-',
      prompt: '',
      inUseBy: null,
      interrupted: false,
    });
  }
  return out;
}

/** Runs `a3s sessions`. */
export async function sessionsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    { ...SESSION_FLAGS, resume: { type: 'string' }, json: { type: 'boolean' } },
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
    if (values.json)
      throw new UsageError(
        '--json and --resume cannot be used together: --json prints the list, --resume reopens one session interactively',
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
      `--${idle} applies only with --resume <id> (the session it reopens); a3s sessions without --resume lists the sessions, and takes --cwd and --json`,
    );
  const list = await rows(workspace);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(list)}\n`);
    return EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  if (list.length === 0) {
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
    io.stdout.write(`${style.bold(rowName(r))}${saved}  ${style.dim(r.modified)}  ${inUse}${state}\n`);
    if (r.prompt) io.stdout.write(style.dim(`    "${terminalText(r.prompt)}"\n`));
  }
  if (empty.length > 0)
    io.stdout.write(style.dim(`(${empty.length} session(s) opened without a prompt not listed; --json lists them)\n`));
  if (list.some((r) => !empty.includes(r) && !r.last.startsWith('unreadable')))
    io.stdout.write(style.dim(`resume one with: a3s sessions --resume <id>\n`));
  return EXIT.ok;
}
