/**
 * The debug pack's resource: the session's debug supervisor. It holds the breakpoints (settable
 * before `launch`), at most one debug session with a hard time-to-live, and kills the adapter
 * and its debuggee when the session ends, the TTL passes, or the resource closes.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import type { OpenedResource, ToolResource } from '@a3s-code/core';
import {
  type AdapterId,
  type AttachTarget,
  adapterForProgram,
  listAdapters,
  resolveAdapter,
  type AdapterAvailability,
} from './adapters.js';
import { DebugToolError } from './debug-errors.js';
import { DebugSession, type ProcessHold } from './debug-session.js';
import { checkAttachPid, checkAttachPort, confineProgram } from './target-guard.js';

/** The capability the debug tool requires. */
export const DEBUG_RESOURCE = 'resource.debug';

/** The hard time-to-live of a debug session: 30 minutes. */
export const DEBUG_SESSION_TTL_MS = 30 * 60_000;

/** How long `launch` and `attach` wait for a stop or the end by default when no breakpoint is set. */
const DEBUG_SETTLE_MS = 3000;

/** Options of {@link openDebugResource}. */
export interface DebugResourceOptions {
  /** Epoch-milliseconds clock (default `Date.now`); the TTL is measured on it. */
  readonly clock?: () => number;
  /** Session time-to-live in milliseconds (default 30 minutes). */
  readonly ttlMs?: number;
  /** How long `launch` (with breakpoints set), `wait`, `continue` and the steps wait for the next stop (default 30 s). */
  readonly stopWaitMs?: number;
  /**
   * How long `launch` and `attach` wait for a stop or the end when no breakpoint is set, counted
   * once the program runs (default 3 s, at most `stopWaitMs`); a program still going is `running`.
   */
  readonly settleMs?: number;
  /** The folder `attach` reads processes from (default `/proc`); a folder without them refuses every attach. */
  readonly procRoot?: string;
}

/** The opened debug resource a tool gets from `ctx.resource(DEBUG_RESOURCE)`. */
export interface DebugResource extends OpenedResource {
  /** Every adapter's availability in `cwd`. */
  adapters(cwd: string): AdapterAvailability[];
  /** The running session (ended first when its TTL passed), if any. */
  current(): Promise<DebugSession | undefined>;
  /** Sets or clears one file's breakpoints; applied to the running session too. */
  setBreakpoints(
    cwd: string,
    file: string,
    lines: readonly number[],
  ): Promise<{ line: number; verified: boolean; message?: string }[] | undefined>;
  /** The configured breakpoints. */
  breakpoints(): ReadonlyMap<string, readonly number[]>;
  /**
   * Starts a session on `program`; rejected while one runs. `hold`: the call's hold on the
   * processes it starts, through which the adapter (and so the debuggee) is started. `waitMs`:
   * how long to wait for the first stop or the end (default `stopWaitMs` with breakpoints set,
   * else `settleMs`).
   */
  launch(
    cwd: string,
    program: string,
    args: readonly string[],
    adapter?: AdapterId,
    hold?: ProcessHold,
    waitMs?: number,
  ): Promise<DebugSession>;
  /**
   * Attaches to a running debuggee (by the port it listens on, or its process id); rejected while a
   * session runs, and when `hold` keeps files from the call's processes: a process started
   * elsewhere is not held, and its debugger could read them through it. `waitMs` as for `launch`.
   */
  attach(
    cwd: string,
    target: AttachTarget,
    adapter: AdapterId,
    hold?: ProcessHold,
    waitMs?: number,
  ): Promise<DebugSession>;
  /** Ends the running session (no-op without one); true when one was ended. */
  terminate(): Promise<boolean>;
  /** How long running operations wait for a stop. */
  readonly stopWaitMs: number;
  /** Milliseconds left before the running session's TTL, if any. */
  ttlLeft(): number | undefined;
}

/** Opens the supervisor (no adapter starts until `launch` or `attach`). */
export async function openDebugResource(options: DebugResourceOptions = {}): Promise<DebugResource> {
  const clock = options.clock ?? Date.now;
  const ttl = options.ttlMs ?? DEBUG_SESSION_TTL_MS;
  const stopWaitMs = options.stopWaitMs ?? 30_000;
  const settleMs = Math.min(options.settleMs ?? DEBUG_SETTLE_MS, stopWaitMs);
  const procRoot = options.procRoot ?? '/proc';
  const bps = new Map<string, readonly number[]>();
  let session: DebugSession | undefined;
  let closed = false;
  let starting = false;
  // Ends the session at its TTL even when no call comes to notice (a debuggee left running).
  let ttlTimer: ReturnType<typeof setTimeout> | undefined;
  const setSession = (s: DebugSession | undefined) => {
    if (ttlTimer !== undefined) clearTimeout(ttlTimer);
    ttlTimer = undefined;
    session = s;
    if (s === undefined) return;
    ttlTimer = setTimeout(() => {
      if (session !== s) return;
      setSession(undefined);
      void s.close();
    }, ttl);
    ttlTimer.unref();
  };

  const expireIfDue = async () => {
    if (session !== undefined && clock() - session.startedAt >= ttl) {
      const s = session;
      setSession(undefined);
      await s.close();
      return true;
    }
    return false;
  };
  // Synchronous, so that two calls racing through their awaits cannot both pass it.
  const refuseBusy = () => {
    if (closed) throw new DebugToolError('DEBUG_CLOSED', 'the session closed and its debugger was shut down');
    if (session?.alive && session.state.kind !== 'exited')
      throw new DebugToolError(
        'DEBUG_SESSION_EXISTS',
        `a debug session is already running (${session.adapter.id} on ${session.program}); terminate it before starting another`,
        { adapter: session.adapter.id, program: session.program },
      );
    if (starting) throw new DebugToolError('DEBUG_SESSION_EXISTS', 'a debug session is being started');
  };
  const pick = (cwd: string, id: AdapterId) => {
    const adapter = resolveAdapter(id, cwd);
    if (typeof adapter === 'string')
      throw new DebugToolError('DEBUG_ADAPTER', `the ${id} adapter cannot start here: ${adapter}`, { adapter: id });
    return adapter;
  };
  const start = async (
    cwd: string,
    id: AdapterId,
    label: string,
    request: 'launch' | 'attach',
    args: (a: ReturnType<typeof pick>) => Record<string, unknown> | string,
    connectPort?: (a: ReturnType<typeof pick>) => number | undefined,
    checkTarget?: () => void,
    hold?: ProcessHold,
    waitMs?: number,
  ) => {
    refuseBusy();
    await expireIfDue();
    refuseBusy();
    starting = true;
    try {
      if (session !== undefined) {
        const s = session;
        setSession(undefined);
        await s.close();
      }
      const adapter = pick(cwd, id);
      const dapArgs = args(adapter);
      if (typeof dapArgs === 'string') throw new DebugToolError('DEBUG_ARGS', dapArgs, { adapter: id });
      checkTarget?.();
      // The folder delve builds the program in (made for this launch) goes with the session.
      const output = typeof dapArgs.output === 'string' ? dirname(dapArgs.output) : undefined;
      const built = output?.startsWith(join(tmpdir(), 'a3s-dlv-')) === true ? output : undefined;
      const port = connectPort?.(adapter);
      let s: DebugSession;
      try {
        s =
          port === undefined
            ? await DebugSession.start(adapter, label, cwd, clock(), hold)
            : await DebugSession.connect(adapter, label, port, clock());
      } catch (error) {
        if (built !== undefined) rmSync(built, { recursive: true, force: true });
        throw error;
      }
      if (built !== undefined) s.removeOnClose(built);
      try {
        const armed = [...bps.values()].some((lines) => lines.length > 0);
        await s.begin(request, dapArgs, bps, waitMs ?? (armed ? stopWaitMs : settleMs));
      } catch (error) {
        await s.close();
        throw error;
      }
      if (closed) {
        await s.close();
        throw new DebugToolError('DEBUG_CLOSED', 'the session closed and its debugger was shut down');
      }
      setSession(s);
      return s;
    } finally {
      starting = false;
    }
  };

  return {
    stopWaitMs,
    adapters: (cwd) => listAdapters(cwd),
    async current() {
      await expireIfDue();
      return session;
    },
    async setBreakpoints(cwd, file, lines) {
      const path = isAbsolute(file) ? file : resolvePath(cwd, file);
      if (lines.length === 0) bps.delete(path);
      else
        bps.set(
          path,
          [...new Set(lines)].sort((a, b) => a - b),
        );
      await expireIfDue();
      if (session === undefined || !session.alive || session.state.kind === 'exited') return undefined;
      return session.setBreakpoints(path, bps.get(path) ?? []);
    },
    breakpoints: () => bps,
    async launch(cwd, program, args, adapter, hold, waitMs) {
      refuseBusy();
      const path = confineProgram(cwd, program);
      const id = adapter ?? adapterForProgram(path);
      return start(cwd, id, path, 'launch', (a) => a.launchArgs(path, args, cwd), undefined, undefined, hold, waitMs);
    },
    async attach(cwd, target, adapter, hold, waitMs) {
      const label = target.pid !== undefined ? `process ${target.pid}` : `port ${target.port}`;
      const hidden = hold === undefined ? [] : (await hold({ command: 'true', args: [] })).hidden;
      if (hidden.length > 0)
        throw new DebugToolError(
          'DEBUG_ARGS',
          `attach is refused while the permission rules keep files from this call's processes (${hidden.slice(0, 3).join(', ')}): ${label} was not started by this call, so it is not held to them, and its debugger could read them through it; launch the program with debug instead`,
          { op: 'attach' },
        );
      return start(
        cwd,
        adapter,
        label,
        'attach',
        (a) => a.attachArgs(target, cwd),
        (a) => (a.attachConnects?.(target) === true ? target.port : undefined),
        () =>
          target.pid !== undefined
            ? checkAttachPid(cwd, target.pid, { root: procRoot })
            : checkAttachPort(cwd, target.port, { root: procRoot }),
        undefined,
        waitMs,
      );
    },
    async terminate() {
      const s = session;
      setSession(undefined);
      if (s === undefined) return false;
      await s.close();
      return true;
    },
    ttlLeft: () => (session === undefined ? undefined : Math.max(0, ttl - (clock() - session.startedAt))),
    close: async () => {
      closed = true;
      const s = session;
      setSession(undefined);
      bps.clear();
      await s?.close();
    },
  };
}

/** The resource of the debug pack (the TTL runs on the session's clock). */
export const debugResource: ToolResource<DebugResource> = {
  capability: DEBUG_RESOURCE,
  opens: 'lazy',
  open: (context) => openDebugResource({ clock: context.clock }),
};
