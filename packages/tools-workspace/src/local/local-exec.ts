/**
 * `WorkspaceExec` on the local machine. Each command runs in its own process group and session
 * (`detached: true`) with a unique tag in its environment (`A3S_EXEC_ID`, see `proc-scan.ts`),
 * on Linux under a reaper that adopts the orphans of its tree (see `reaper.ts`).
 * The deadline covers draining the output and the exit; on timeout or cancellation the group and,
 * on Linux, every process carrying the tag (including those that called `setsid` or double-forked)
 * are killed. Processes still running after the shell exits normally are reported in the result
 * and killed by {@link LocalExec.close}, or when the host process exits. Without `/proc` (macOS,
 * BSD) only the process group is tracked.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import {
  A3sError,
  CancelledError,
  type ExecHiding,
  type ProcessCommand,
  type WorkspaceBackgroundProcess,
  type WorkspaceExec,
  type WorkspaceExecRequest,
  type WorkspaceExecResult,
  refusedBeforeChange,
  toolProcessEnv,
} from '@a3s-code/core';
import { WorkspaceFileError, WorkspaceProcessError } from '../errors.js';
import { BackgroundProcesses } from './background-processes.js';
import type { LocalFileSystem } from './local-fs.js';
import { EXEC_TAG_VAR, type ExecMark, PROC_AVAILABLE, procStat, tagChain } from './proc-scan.js';
import { killMarked, signalMarked } from './process-killer.js';
import { delay, settledSurvivors } from './survivors.js';
import { apartNote, type IsolateCommands, isolateForCredentials, NOTHING_HIDDEN } from './credential-isolation.js';
import { hiddenProcess } from './hide-process.js';
import { SharedNamespace, withShellPid } from './shared-namespace.js';
import { createPidsGroup, DEFAULT_MAX_PROCESSES, killGroup } from './pids-cgroup.js';
import { reaperCommand, type ShellExit } from './reaper.js';
import { pipesClosed, processExit, shellExit } from './shell-exit.js';
import { liveOutput, StreamCapture } from './stream-capture.js';

/** Default deadline of a command, in milliseconds. */
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
/** Default byte cap per stream (head + tail). */
export const DEFAULT_EXEC_MAX_OUTPUT_BYTES = 64 * 1024;
/** Time between SIGTERM and SIGKILL of a timed-out command, in milliseconds. */
/**
 * No command has a terminal, so no editor it starts can be used; but vi started without one reads
 * its commands from the command's input (`git commit <<< ':!cmd'` ran `cmd`). Every program that
 * would start one (`git commit` without `-m`, `git rebase -i`, `git config --edit`, `crontab -e`)
 * gets `true` instead, which leaves the file as it was: git then stops for an empty message, or
 * keeps its default one. A command may still name an editor itself (`GIT_EDITOR=… git …`).
 */
const NO_EDITOR = {
  EDITOR: 'true',
  VISUAL: 'true',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  SUDO_EDITOR: 'true',
  KUBE_EDITOR: 'true',
} as const;

const KILL_GRACE_MS = 500;
/** How long to wait for pipes to close after the processes are dead before giving up on them. */
const DRAIN_GRACE_MS = 500;
/**
 * After the shell exits, how long its pipes may stay open before the processes holding them
 * count as background processes and the command returns without their later output.
 */
const DETACH_GRACE_MS = 200;
/** Time background processes get between SIGTERM and SIGKILL on {@link LocalExec.close}. */
const CLOSE_GRACE_MS = 1000;

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/**
 * Largest command line, in UTF-8 bytes: the command is one argument of the shell, and Linux
 * takes at most 128 KiB (`MAX_ARG_STRLEN`, its NUL included) in one argument of a new process.
 */
const MAX_COMMAND_BYTES = 131_071;

/** Why `command` cannot be one argument of a new process, or `undefined` when it can. */
function unfitCommand(command: string): string | undefined {
  if (command.length * 3 > MAX_COMMAND_BYTES) {
    const bytes = Buffer.byteLength(command, 'utf8');
    if (bytes > MAX_COMMAND_BYTES)
      return `it is ${bytes} bytes (UTF-8), and a command line takes at most ${MAX_COMMAND_BYTES}; run a longer script from a file`;
  }
  return command.includes('\0') ? 'it contains a NUL byte, which no command line can carry' : undefined;
}

/** Lets the host exit while a background process still holds the pipe (it is a socket underneath). */
function unref(stream: Readable | null | undefined): void {
  const handle = stream as (Readable & { unref?: () => void }) | null | undefined;
  if (typeof handle?.unref === 'function') handle.unref();
}

/**
 * `work`, holding the host process open until it settles. The waits inside a command (its
 * timeout, the kill rounds after a cancellation, the drain of its pipes) do not hold the host
 * open, so that a command left running never keeps it alive; once the child has exited they may
 * be all that is left, and an `await` of a cancelled command or of `close()` would then never
 * settle (Node exits with code 13 halfway).
 */
function holdingHost<T>(work: Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, 60_000);
  return work.finally(() => clearInterval(hold));
}

/** The files of a request's `hide`, for a message: the first few, and how many more. */
function describeHidden(hide: ExecHiding | undefined): string {
  const all = [...(hide?.unreadable ?? []), ...(hide?.unwritable ?? [])];
  const shown = all.slice(0, 3).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} more` : shown;
}

/** Local process execution of a {@link LocalWorkspace}. */
export class LocalExec implements WorkspaceExec {
  private readonly fs: LocalFileSystem;
  readonly #background = new BackgroundProcesses();
  /** Kill switches of the commands running now, for {@link LocalExec.close}. */
  readonly #running = new Set<{ readonly kill: () => void; readonly done: Promise<unknown> }>();

  /** Model credentials kept in the commands' environment (see `toolProcessEnv`). */
  readonly #passEnv: readonly string[];

  /** Ceiling on the processes of one command's tree, or `false` (see `pids-cgroup.ts`). */
  readonly #maxProcesses: number | false;

  /** When commands run apart from the host's processes (see `credential-isolation.ts`). */
  readonly #isolate: IsolateCommands;

  /** The namespaces commands share while they run apart from the host. */
  readonly #shared = new SharedNamespace();

  constructor(
    fs: LocalFileSystem,
    passEnv: readonly string[] = [],
    maxProcesses: number | false = DEFAULT_MAX_PROCESSES,
    isolate: IsolateCommands = 'auto',
  ) {
    this.#passEnv = [...passEnv];
    this.#maxProcesses = maxProcesses;
    this.#isolate = isolate;
    this.fs = fs;
  }

  /** True when processes started now must run apart from the host's (see `credential-isolation.ts`). */
  #apart(): boolean {
    return isolateForCredentials(this.#isolate, this.#passEnv);
  }

  run(request: WorkspaceExecRequest): Promise<WorkspaceExecResult> {
    const stop = new AbortController();
    const done = holdingHost(this.#run(request, stop.signal));
    const entry = { kill: () => stop.abort(), done: done.catch(() => undefined) };
    this.#running.add(entry);
    void entry.done.then(() => this.#running.delete(entry));
    return done;
  }

  /**
   * `command` started with the files of `hide` out of its reach (see `hide-process.ts`), or
   * `undefined` here where that cannot be done. With nothing to hide, `command` itself, or, where
   * commands run apart from the host (`isolateCommands`), `command` kept from the host's processes.
   */
  hiding(command: ProcessCommand, hide: ExecHiding): ProcessCommand | undefined {
    if (hide.unreadable.length > 0 || hide.unwritable.length > 0) return hiddenProcess(command, hide);
    const apart = this.#apart();
    return (apart ? hiddenProcess(command, NOTHING_HIDDEN, this.#shared.folderNow() ?? true) : undefined) ?? command;
  }

  /** Makes the namespaces commands share, where they run apart from the host, before `hiding` is asked. */
  async prepare(): Promise<void> {
    if (this.#apart()) await this.#shared.folder();
  }

  /**
   * The host's pid of the process commands know as `pid`: itself unless they run in namespaces
   * of their own (`isolateCommands`), where `undefined` says none of theirs has it.
   */
  hostPid(pid: number): number | undefined {
    return this.#shared.hostPid(pid);
  }

  /**
   * Kills every process a command started that is still running: commands in progress (they
   * reject with `CANCELLED`) and the background processes of finished ones (SIGTERM, then SIGKILL
   * after a second). The service stays usable.
   */
  async close(): Promise<void> {
    const running = [...this.#running];
    for (const r of running) r.kill();
    await holdingHost(Promise.all([...running.map((r) => r.done), this.#background.terminate(CLOSE_GRACE_MS)]));
    // Whatever is left in the commands' shared namespaces (nothing found it by tag or group) ends with them.
    this.#shared.close();
  }

  async #run(request: WorkspaceExecRequest, closing: AbortSignal): Promise<WorkspaceExecResult> {
    const { signal } = request;
    if (signal?.aborted) throw new CancelledError('command', signal.reason);
    // Refused before anything starts (not a late `spawn E2BIG`): it changed nothing.
    const unfit = unfitCommand(request.command);
    if (unfit !== undefined)
      throw refusedBeforeChange(new WorkspaceProcessError('bash', `the command was not run: ${unfit}`));
    // A folder refused here refuses the command before it starts: it changed nothing.
    const cwd = await this.fs.resolve(request.cwd ?? '', 'cwd').catch((e: unknown) => {
      throw A3sError.isInstance(e) ? refusedBeforeChange(e) : e;
    });
    const s = await this.fs.stat(cwd.rel);
    if (s?.kind !== 'directory')
      throw refusedBeforeChange(
        new WorkspaceFileError(
          cwd.rel,
          s ? 'not_directory' : 'not_found',
          'the working directory is not an existing directory',
        ),
      );
    const timeoutMs = request.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const cap = request.maxOutputBytes ?? DEFAULT_EXEC_MAX_OUTPUT_BYTES;
    const stdout = new StreamCapture(cap);
    const stderr = new StreamCapture(cap);
    const tag = randomUUID();
    const t0 = performance.now();
    // Its own process group and session: the group is what a timeout or a cancellation kills.
    const env = {
      ...toolProcessEnv(process.env, this.#passEnv),
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      ...NO_EDITOR,
      ...request.env,
      [EXEC_TAG_VAR]: tagChain(tag, process.env[EXEC_TAG_VAR]),
    };
    const hide = request.hide;
    const hiding = hide !== undefined && (hide.unreadable.length > 0 || hide.unwritable.length > 0);
    // The host's processes hold the model's key (or the host asked): a command that could see them could read it.
    const isolate = !hiding && this.#apart();
    // Run apart, commands share one set of namespaces (they see each other's processes), else each its own.
    const joined = isolate ? await this.#shared.folder() : undefined;
    const group = this.#maxProcesses === false ? undefined : createPidsGroup(this.#maxProcesses);
    const reaper = reaperCommand(
      SHELL,
      ['-c', request.command],
      env,
      PROC_AVAILABLE,
      hiding ? hide : undefined,
      group?.procsFile,
      joined ?? isolate,
    );
    if (reaper === undefined) group?.remove();
    if (hiding && reaper === undefined)
      throw refusedBeforeChange(
        new WorkspaceProcessError(
          'bash',
          `the command was not run: files the permission rules keep from commands (${describeHidden(hide)}) can be hidden only on Linux, with Perl and /proc, and this machine cannot`,
        ),
      );
    const child = spawn(reaper?.command ?? SHELL, reaper?.args ?? ['-c', request.command], {
      cwd: cwd.abs,
      env: reaper?.env ?? env,
      detached: true,
      stdio: [request.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(reaper ? (['pipe'] as const) : [])],
    });
    // The group goes when the reaper does (once the last process of the tree has gone); whether a
    // fork hit the ceiling is read first.
    let limitHit = false;
    const leaveGroup = (): void => {
      limitHit ||= group?.reached() ?? false;
      group?.remove();
    };
    child.once('exit', leaveGroup);
    child.once('error', leaveGroup);
    if (request.stdin !== undefined && child.stdin) {
      // A command that exits without reading its input closes the pipe: that is not an error.
      child.stdin.on('error', () => undefined);
      child.stdin.end(request.stdin);
    }
    const pid = child.pid;
    // Read now, before the event loop can reap the shell: its start time tells its group's
    // members apart from a later group that reuses the id.
    const mark: ExecMark | undefined =
      pid === undefined
        ? undefined
        : {
            tag,
            leader: pid,
            startTicks: PROC_AVAILABLE ? procStat(pid)?.startTicks : undefined,
            ...(reaper ? { reaper: true } : {}),
            ...(hiding || (isolate && reaper !== undefined) ? { namespaced: true } : {}),
          };
    if (mark) this.#background.hold(mark);
    let capturing = true;
    const live = liveOutput(request.onOutput);
    child.stdout?.on('data', (c: Buffer) => {
      if (!capturing) return;
      stdout.push(c);
      live?.('stdout', c);
    });
    child.stderr?.on('data', (c: Buffer) => {
      if (!capturing) return;
      stderr.push(c);
      live?.('stderr', c);
    });
    const exited = reaper ? shellExit(child) : processExit(child);
    // Drained: both output pipes have closed (a reaper holds neither); `settled` adds the exit.
    const drained = pipesClosed(child);
    const settled = Promise.all([exited, drained]).then(() => 'done' as const);
    // Once the shell has exited, pipes still open after a short grace are held by background processes.
    const finished = exited.then(() => Promise.race([settled, delay(DETACH_GRACE_MS, 'detached')]));
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      // A cancellation that came while the command was being set up (after the check at the start)
      // fired no event: it is taken now, and the command is stopped as for a later one.
      if (signal?.aborted === true || closing.aborted) resolve('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      closing.addEventListener('abort', onAbort, { once: true });
    });
    const outcome = await Promise.race([finished, delay(timeoutMs, 'timeout'), aborted]);
    if (onAbort) {
      signal?.removeEventListener('abort', onAbort);
      closing.removeEventListener('abort', onAbort);
    }
    let background: WorkspaceBackgroundProcess[] = [];
    if (outcome === 'timeout' || outcome === 'aborted') {
      if (mark) {
        signalMarked([mark], 'SIGTERM', true);
        await Promise.race([settled, delay(KILL_GRACE_MS, 'grace')]);
        // Always sweep: a process outside the group may have ignored SIGTERM without holding a pipe.
        await killMarked([mark], true);
        this.#background.release(mark, false);
      }
      if (group !== undefined) await killGroup(group);
      if ((await Promise.race([settled, delay(DRAIN_GRACE_MS, 'stuck')])) !== 'done') {
        // A process nothing can find holds the pipes: stop reading them.
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
    } else if (mark) {
      background = await settledSurvivors(mark, `${SHELL} -c ${request.command}`.trim());
      // Later commands join the same namespaces: they know these processes by their pids there.
      if (joined !== undefined && reaper !== undefined) background = background.map(withShellPid);
      this.#background.release(mark, outcome === 'detached' || background.length > 0);
      if (outcome === 'detached') {
        // Keep draining (a writer to a closed pipe would die of SIGPIPE) without holding the host open.
        capturing = false;
        unref(child.stdout);
        unref(child.stderr);
      }
    }
    // Nothing more reaches the live listener once the command returns.
    capturing = false;
    const exit: ShellExit = await Promise.race([
      exited,
      delay(DRAIN_GRACE_MS, 'gone').then(() => ({ code: null, sig: 'SIGKILL' })),
    ]);
    if (exit.unheld !== undefined && !hiding)
      throw new WorkspaceProcessError(
        'bash',
        `the command was not run: it could not be started apart from the host's processes (the host's environment holds a model key, which commands must not read): ${exit.unheld}; the host can let commands see its processes with LocalWorkspace's isolateCommands: false`,
      );
    if (exit.unheld !== undefined)
      throw new WorkspaceProcessError(
        'bash',
        `the command was not run: files the permission rules keep from commands (${describeHidden(hide)}) could not be hidden from it: ${exit.unheld} (hiding needs mount and user namespaces, which this machine may not allow unprivileged processes; commands run here only while no path deny rule covers an existing file)`,
      );
    if (outcome === 'aborted')
      throw new CancelledError(
        `command ${JSON.stringify(request.command.slice(0, 80))}`,
        closing.aborted ? 'the workspace exec service was closed' : signal?.reason,
      );
    const note = isolate && reaper !== undefined ? apartNote(request.command, exit) : undefined;
    return {
      ...(note === undefined ? {} : { heldNotes: [note] }),
      exitCode: exit.code,
      signal: exit.sig,
      timedOut: outcome === 'timeout',
      stdout: stdout.result(),
      stderr: stderr.result(),
      durationMs: performance.now() - t0,
      ...(background.length > 0 ? { backgroundProcesses: background } : {}),
      ...(group !== undefined && (limitHit || group.reached()) ? { processLimit: group.max } : {}),
    };
  }
}
