/**
 * Opens an SDK session from the CLI flags. The CLI adds only host choices — which tools run
 * without asking, YOLO, plan mode, how to park — and the SDK and core do the rest
 * (the same kernel as every other host), including the workspace's `a3s.config.json` and its MCP
 * servers. A session opened here is closed with its agent (the agent-global MCP servers) by
 * {@link OpenedSession.close}, also on SIGTERM and SIGHUP.
 */
import { existsSync, statSync } from 'node:fs';
import { Agent, mcpReadOnlyChecker, READ_TOOL_RULES, type Session, type SessionOptions } from '@a3s-code/sdk';
import { findConfigFile, loadCodeConfig, terminalText, type WorkflowProgressEvent } from '@a3s-code/core';
import { checkModelFlag, type SessionFlags } from './args.js';
import { checkConfigPaths, ignoredConfigWarnings, inheritedConfigNotice } from './config-path.js';
import { EXIT, UsageError } from './errors.js';
import { exitWith } from './exit-with.js';
import { ownOutputNotes } from './own-output-note.js';
import { vibeNote, vibeStart } from './vibe-settings.js';
import { cliWorkflowPack } from './flows/index.js';
import type { Out } from './io.js';
import { checkStateRoot } from './state-root.js';
import { styleFor } from './style.js';
import { checkWorkspaceTrust } from './workspace-trust.js';

/** Session options plus the CLI's own: where `dynamic_workflow` progress goes (nowhere by default). */
export interface CliSessionOptions extends SessionOptions {
  readonly workflowProgress?: (event: WorkflowProgressEvent) => void;
  /**
   * The host routes SIGINT, SIGTERM and SIGHUP through a shutdown of its own (`a3s serve`, which closes
   * its other sessions first): no listener quitting the process is added while the session opens.
   */
  readonly hostHandlesSignals?: boolean;
}

/**
 * The signals that end a command as SIGTERM does (the run interrupted and recorded as cancelled,
 * everything closed), with their exit codes: SIGTERM (143), and SIGHUP (129: the terminal was
 * closed, which is no crash either).
 */
export const TERMINATING_SIGNALS: readonly (readonly ['SIGTERM' | 'SIGHUP', number])[] = [
  ['SIGTERM', EXIT.terminated],
  ['SIGHUP', EXIT.hangup],
];

/** Adds `handler(signal, exitCode)` for SIGINT (130, unless `withInt` is false) and each of {@link TERMINATING_SIGNALS}; returns the remover. */
export function onQuitSignals(handler: (signal: NodeJS.Signals, code: number) => void, withInt = true): () => void {
  const pairs: (readonly [NodeJS.Signals, number])[] = [
    ...(withInt ? [['SIGINT', EXIT.cancelled] as const] : []),
    ...TERMINATING_SIGNALS,
  ];
  const listeners = pairs.map(([signal, code]) => [signal, () => handler(signal, code)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}

/**
 * Read-only tools run without asking; everything else asks (or runs under `--yolo`). These rules
 * add to the workspace config file's `permissions` (deny → ask → allow across both lists).
 */
export const CLI_ALLOW_RULES: readonly string[] = READ_TOOL_RULES;

/** A session and the agent that owns its global MCP servers. */
export interface OpenedSession {
  readonly agent: Agent;
  readonly session: Session;
  /** Set when the workspace config file turned vibe mode on: the line to show (see {@link vibeNote}). */
  readonly vibeNote?: string;
  /** Set when opening the log cut off a line a crash left incomplete: the warning to show on stderr. */
  readonly repairNote?: string;
  /** Closes the session, then the agent (idempotent). */
  close(): Promise<void>;
}

/** {@link SessionFlags.warn} writing to `out` (a command's stderr), in yellow where it is a terminal. */
export function warnTo(out: Out, env: Readonly<Record<string, string | undefined>>): (line: string) => void {
  const style = styleFor(out, env);
  return (line) => void out.write(`${style.yellow(terminalText(line))}\n`);
}

/**
 * The agent of the flags: their model (or the workspace's config file, or `A3S_MODEL`). `uses`:
 * the only keys of the workspace's config file the command acts on, when it acts on fewer than a
 * session (see {@link checkWorkspaceTrust}).
 */
export async function agentFor(
  flags: SessionFlags,
  env: Readonly<Record<string, string | undefined>>,
  uses?: readonly string[],
): Promise<Agent> {
  if (!existsSync(flags.cwd) || !statSync(flags.cwd).isDirectory())
    throw new UsageError(`--cwd: '${flags.cwd}' is not a folder`);
  checkConfigPaths(flags.cwd);
  const ignored = flags.ignoreWorkspaceConfig === true;
  const warn = flags.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  if (!ignored) {
    const inherited = await inheritedConfigNotice(flags.cwd);
    if (inherited !== undefined) warn(inherited);
    for (const line of await ignoredConfigWarnings(flags.cwd)) warn(line);
  }
  if (flags.trustWorkspace !== undefined && !ignored) {
    const warning = await checkWorkspaceTrust(flags.cwd, flags.trustWorkspace, env, flags.askTrust, flags.model, uses);
    if (warning !== undefined) warn(warning);
  }
  let modelEnv = env;
  if (flags.model === undefined && env.A3S_MODEL) {
    const file = ignored ? undefined : await findConfigFile(flags.cwd);
    const fileModel = file === undefined ? undefined : (await loadCodeConfig(file)).model;
    // A model from A3S_MODEL is named as coming from there; when the workspace's config file names
    // a model, that one is used and A3S_MODEL is not even resolved (its provider may have no key).
    if (fileModel === undefined) checkModelFlag(env.A3S_MODEL, flags.startedIn, true, 'A3S_MODEL=');
    else modelEnv = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'A3S_MODEL'));
  }
  return Agent.create({
    env: modelEnv,
    cwd: flags.startedIn,
    ...(flags.model === undefined ? {} : { model: flags.model }),
    // The check above passed, so the file is used as trusted; without it the SDK's own default
    // holds (a file that needs trust is refused with WORKSPACE_UNTRUSTED).
    ...(ignored ? { workspaceConfig: false } : flags.trustWorkspace === undefined ? {} : { workspaceConfig: true }),
  });
}

/**
 * The session options of the flags: the CLI's allow rules, plan mode, YOLO, vibe mode (`vibeOn`:
 * see {@link vibeStart}), and
 * `dynamic_workflow` with the CLI's flows (every command offers the same tools, so a run parked by
 * `a3s run` resumes in `a3s code` under the same capabilities). MCP tools their server declares
 * read-only (tier `read`) run without asking too, unless a rule says otherwise. Each command adds
 * who approves asked calls (`a3s code`: the terminal; `a3s run`: nobody, so they park or are
 * refused with `no approver`).
 */
export function flagOptions(
  flags: SessionFlags,
  workflowProgress: (event: WorkflowProgressEvent) => void = () => undefined,
  vibeOn: boolean = flags.vibe === true,
): SessionOptions {
  return {
    tools: [cliWorkflowPack(workflowProgress)],
    permissions: { allow: CLI_ALLOW_RULES },
    checker: mcpReadOnlyChecker(),
    governance: { ...(flags.plan ? { mode: 'plan' as const } : {}), ...(flags.yolo ? { yolo: true } : {}) },
    // The roster is always attached (vibe mode on with --vibe or the config file's `vibe`, else off),
    // so /vibe can switch it and every command has the same capabilities. The SDK merges these
    // settings over the file's, tier by tier.
    vibe: { enabled: vibeOn, ...(flags.vibeTiers === undefined ? {} : { tiers: flags.vibeTiers }) },
  };
}

/**
 * Opens a session on `flags.cwd` with the flags' model, YOLO and plan mode, plus `extra` options;
 * `resume` reopens a saved session (`agent.resumeSession`) instead of opening a new one.
 */
export async function openSession(
  flags: SessionFlags,
  env: Readonly<Record<string, string | undefined>>,
  extra: CliSessionOptions = {},
  resume?: string,
): Promise<OpenedSession> {
  // The session keeps its log in .a3s: a file or a link there is named before anything opens.
  checkStateRoot(flags.cwd, false);
  const agent = await agentFor(flags, env);
  const { workflowProgress, hostHandlesSignals, ...rest } = extra;
  const vibe = await vibeStart(flags);
  const base = flagOptions(flags, workflowProgress, vibe.on);
  const options: SessionOptions = { ...base, ...rest, tools: [...(base.tools ?? []), ...(rest.tools ?? [])] };
  let session: Session;
  // While the session opens (MCP servers starting), a Ctrl-C, SIGTERM or SIGHUP quits at once
  // through `process.exit`, whose exit hooks kill the servers already started: without a listener
  // the signal would end the process with none of those hooks run, leaving the servers running.
  // A host with a shutdown of its own (hostHandlesSignals) has its listeners in place already.
  const stopQuit = hostHandlesSignals === true ? () => undefined : onQuitSignals((_, code) => exitWith(code));
  try {
    session =
      resume === undefined
        ? await agent.session(flags.cwd, options)
        : await agent.resumeSession(resume, { ...options, dir: flags.cwd });
  } catch (e) {
    await agent.close();
    throw e;
  } finally {
    stopQuit();
  }
  // Named once: the workspace opened with the session leaves the same files out of its change snapshots.
  const warn = flags.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  for (const line of ownOutputNotes(flags.cwd)) warn(line);
  let closing: Promise<void> | undefined;
  const note = vibeNote(vibe);
  const repair = session.logRepair;
  return {
    agent,
    session,
    ...(note === undefined ? {} : { vibeNote: note }),
    ...(repair === null
      ? {}
      : {
          repairNote: `warning: the log of session '${session.sessionId}' ended in an incomplete line (line ${repair.line}, ${repair.bytesCut} bytes) left by a crash mid-write; it was cut off and every complete fact was kept (${repair.reason})`,
        }),
    close: () => (closing ??= keepAlive(session.close().finally(() => agent.close()))),
  };
}

/**
 * `closing`, with the event loop held open until it settles. Closing waits for killed commands
 * and MCP servers on timers that do not hold the process open (so they never keep a host
 * alive by themselves); without a handle of its own, the process could run out of work halfway
 * through (Node's exit code 13, the run summary never printed, the servers never closed).
 */
function keepAlive(closing: Promise<void>): Promise<void> {
  const hold = setInterval(() => undefined, 60_000);
  return closing.finally(() => clearInterval(hold));
}

/** How long SIGTERM (or SIGHUP) waits for the interrupted run to record its end before closing anyway. */
const SIGTERM_GRACE_MS = 5000;

/**
 * On SIGTERM, or SIGHUP (the terminal was closed): interrupts the run, waits (up to
 * {@link SIGTERM_GRACE_MS}) for it to record its end in the log (so the log says `cancelled`, as
 * after Ctrl-C, not a run still going, which resuming would re-run), closes the session and the
 * agent (MCP servers included), then exits with 143 (SIGHUP: 129). Returns the remover.
 */
export function closeOnSigterm(opened: OpenedSession): () => void {
  let terminating = false;
  const onTerm = (signal: NodeJS.Signals, code: number): void => {
    if (terminating) return;
    terminating = true;
    const { session } = opened;
    const why = signal === 'SIGHUP' ? 'the terminal was closed (SIGHUP)' : 'terminated (SIGTERM)';
    if (!session.closed) session.interrupt(why);
    const deadline = Date.now() + SIGTERM_GRACE_MS;
    const settled = new Promise<void>((done) => {
      const check = (): void => {
        if (session.activeRunId === null || Date.now() >= deadline) done();
        else setTimeout(check, 20);
      };
      check();
    });
    void settled.then(() => opened.close()).finally(() => exitWith(code));
  };
  return onQuitSignals(onTerm, false);
}

/**
 * Closes the session and its agent; a Ctrl-C, SIGTERM or SIGHUP meanwhile exits at once (130, 143, 129)
 * through `process.exit`, whose exit hooks kill the commands and MCP servers still being stopped.
 * Without a listener the signal would end the process with none of those hooks run, leaving a
 * command that ignores SIGTERM running on its own.
 */
export async function closeOrQuit(opened: OpenedSession): Promise<void> {
  const stopQuit = onQuitSignals((_, code) => exitWith(code));
  try {
    await opened.close();
  } finally {
    stopQuit();
  }
}
