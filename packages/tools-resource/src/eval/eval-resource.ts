/**
 * The eval pack's resource: a kernel factory per session. It starts at most one kernel per
 * language and caller, on the first cell of that language, keeps it between calls, restarts it on
 * `reset` or after it died, and kills every kernel when the session closes. The callers are kept
 * apart: the session's own runs share their kernels, each sub-agent's or worker's run gets its own
 * (killed when that run ends), so no caller runs code in, or is served by, another's kernel.
 */
import { statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { isAbsolute } from 'node:path';
import type {
  HeldProcessCommand,
  OpenedResource,
  ProcessCommand,
  RecordedToolResult,
  RunOwner,
  ToolResource,
  ToolResourceContext,
} from '@a3s-code/core';
import { EvalToolError, RAISE_MEMORY_LIMIT } from './eval-errors.js';
import { commandFor, resolveInterpreter, SANDBOX_INTERPRETERS } from './kernel-command.js';
import { KernelProcess } from './kernel-process.js';
import type { CellOptions, CellResult, EvalLanguage } from './kernel-types.js';
import { type EvalSandboxLookup, placeOf } from './sandbox.js';

export { resolveInterpreter } from './kernel-command.js';

/** The capability the eval tool requires. */
export const EVAL_RESOURCE = 'resource.eval';

/** A cell's result plus what the factory did to run it. */
export interface EvalRun extends CellResult {
  /** True when this call started the kernel (first use, reset, or after a crash). */
  readonly started: boolean;
  /** Why the previous kernel is gone, when it died since the last call. */
  readonly previousDeath?: string;
  /** The interpreter that runs the kernel. */
  readonly interpreter: string;
  /** Where the kernel runs: `host`, or `sandbox <name>` (the conversation's isolation sandbox). */
  readonly runsIn: string;
}

/** The opened eval resource a tool gets from `ctx.resource(EVAL_RESOURCE)`. */
export interface EvalResource extends OpenedResource {
  /** Runs `code` in the caller's kernel for `language` (see `options.runId`), in `cwd`, starting it when needed. */
  run(language: EvalLanguage, code: string, cwd: string, options: EvalCellOptions): Promise<EvalRun>;
  /**
   * The running kernels: language, whose kernel it is (`session`, or `run <id>` for a child run's)
   * and the pid of the process the host started (on the host under Linux, the subreaper wrapper
   * the interpreter runs under).
   */
  kernels(): readonly { readonly language: EvalLanguage; readonly owner: string; readonly pid: number }[];
}

/** How one call runs: the bridge, cancellation, live output and `reset`. */
export type EvalCellOptions = Omit<CellOptions, 'inactivityMs' | 'maxOutputChars'> & {
  /**
   * The run the call belongs to (`ToolContext.runId`): the resource's {@link EvalResourceOptions.runOwner}
   * says whose kernel runs the cell. Needed when the resource has that lookup.
   */
  readonly runId?: string;
  /** Restart the kernel before the cell. */
  readonly reset?: boolean;
  /**
   * The call's hold on the processes it starts (`WorkspaceServices.holdProcess`): a kernel on the
   * host starts through it, with the files the path rules keep from commands hidden; one started
   * under other files to hide (or none) is restarted first.
   */
  readonly hold?: (process: ProcessCommand) => Promise<HeldProcessCommand>;
};

/** The default inactivity budget of a cell: 5 minutes. */
export const EVAL_INACTIVITY_MS = 300_000;
/** The default output cap of a cell, in characters (like `bash`'s 32 KiB per stream). */
export const EVAL_MAX_OUTPUT_CHARS = 32 * 1024;

/** The variable of the agent host's environment that sets the kernels' memory limit in MiB. */
export const EVAL_MEMORY_ENV = 'A3S_EVAL_MEMORY_MB';

/** The default memory limit of a kernel in MiB: 4096, or half the machine's memory when that is less. */
export const EVAL_MEMORY_LIMIT_MB = Math.max(256, Math.min(4096, Math.floor(totalmem() / 2 ** 21)));

/** The smallest memory limit a kernel can start with, in MiB. */
const MIN_MEMORY_MB = 64;

/**
 * The memory limit to use: `configured`, else {@link EVAL_MEMORY_ENV}, else the default; `false`
 * turns it off. A value that is not a whole number of MiB of at least 64 fails with `EVAL_CONFIG`.
 */
export function memoryLimitOf(configured: number | false | undefined, env = process.env): number | undefined {
  if (configured === false) return undefined;
  const raw = configured ?? env[EVAL_MEMORY_ENV];
  if (raw === undefined || raw === '') return EVAL_MEMORY_LIMIT_MB;
  const mb = typeof raw === 'number' ? raw : /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(mb) || mb < MIN_MEMORY_MB)
    throw new EvalToolError(
      'EVAL_CONFIG',
      `the eval memory limit ${JSON.stringify(raw)} (${configured === undefined ? EVAL_MEMORY_ENV : 'memoryLimitMb'}) is not allowed: give a whole number of megabytes, at least ${MIN_MEMORY_MB} (default ${EVAL_MEMORY_LIMIT_MB}); to change it, ${RAISE_MEMORY_LIMIT}`,
      { memory_limit: raw },
    );
  return mb;
}

/** Options of {@link openEvalResource}. */
export interface EvalResourceOptions {
  /** Inactivity budget of a cell in milliseconds, paused during bridge calls (default 5 minutes). */
  readonly inactivityMs?: number;
  /** Output cap of a cell in characters (default 32768). */
  readonly maxOutputChars?: number;
  /**
   * Memory limit of each kernel in MiB (default: {@link EVAL_MEMORY_ENV} when set, else
   * {@link EVAL_MEMORY_LIMIT_MB}; `false`: none). Python gets it as its data-segment limit
   * (`RLIMIT_DATA`, inherited by the processes it starts), JavaScript as its V8 heap limit; on the
   * host the resident memory of the kernel and its processes is also watched. A cell over it fails
   * with `EVAL_MEMORY_LIMIT` and the kernel is restarted.
   */
  readonly memoryLimitMb?: number | false;
  /** Resolves the interpreter command for a language in a folder on the host (default: {@link resolveInterpreter}). */
  readonly interpreter?: (language: EvalLanguage, cwd: string) => string;
  /**
   * Finds the conversation's isolation sandbox; a kernel runs inside it when there is one and on
   * the host otherwise. Asked before each cell (a kernel on the host moves into a sandbox that
   * appeared, losing its state); it never starts a sandbox. Default: none, kernels run on the host.
   */
  readonly sandbox?: EvalSandboxLookup;
  /** The session the lookup is told about (default `''`; the pack's resource passes its session's id). */
  readonly sessionId?: string;
  /**
   * True when the session ran cells of `language` in a kernel this resource did not start (before
   * the session was reopened): the first kernel then says their state is lost. Default: never.
   */
  readonly ranBefore?: (language: EvalLanguage) => boolean;
  /**
   * Whose run a run id is (`ToolResourceContext.runOwner`): the session's runs share kernels, a
   * child run gets kernels of its own, killed when it ends; a call whose run it does not know is
   * refused (`EVAL_CALLER`). Default: none, every call is one caller's (a resource used by one
   * caller only).
   */
  readonly runOwner?: (runId: string) => RunOwner | undefined;
}

/** Whether the recorded results of `eval` hold a cell of `language` that ran in a kernel. */
function ranIn(results: readonly RecordedToolResult[], language: EvalLanguage): boolean {
  return results.some((r) => r.metadata?.language === language && typeof r.metadata.interpreter === 'string');
}

/** The options a session gives the resource: its id, and the cells its log holds from before. */
function sessionOptions(
  context: ToolResourceContext,
): Pick<EvalResourceOptions, 'sessionId' | 'ranBefore' | 'runOwner'> {
  const recorded = context.recordedResults;
  return {
    sessionId: context.sessionId,
    // A session that cannot tell its callers apart gets no kernel for anyone (never a shared one).
    runOwner: context.runOwner ?? (() => undefined),
    ...(recorded === undefined ? {} : { ranBefore: (language: EvalLanguage) => ranIn(recorded('eval'), language) }),
  };
}

interface Slot {
  kernel: KernelProcess;
  /** Whose kernel it is: {@link SESSION}, or `run <id>` for a child run's. */
  owner: string;
  interpreter: string;
  cwd: string;
  runsIn: string;
  /** The files hidden from the kernel, one key (empty: none). */
  hidden: string;
}

/** The owner of the kernels of the session's own runs. */
const SESSION = 'session';

/** Whose kernel a call runs in, and when that owner ends (a child run). */
interface Caller {
  readonly key: string;
  readonly ended?: Promise<void>;
}

/** The caller of a call of run `runId`; throws `EVAL_CALLER` when `lookup` does not know the run. */
function callerOf(lookup: EvalResourceOptions['runOwner'], runId: string | undefined): Caller {
  if (lookup === undefined) return { key: SESSION };
  const owner = runId === undefined ? undefined : lookup(runId);
  if (owner === undefined)
    throw new EvalToolError(
      'EVAL_CALLER',
      `eval cannot tell whose run ${runId === undefined ? '(none named)' : `'${runId}'`} is (the session's own, or a sub-agent's or worker's that is still going), so it runs no cell for it: kernels are kept apart per caller and never shared between callers of different authority`,
      { run_id: runId ?? null },
    );
  return owner.kind === 'session' ? { key: SESSION } : { key: `run ${owner.runId}`, ended: owner.ended };
}

/** How long a call waits for the kernel of a cancelled cell to be killed. */
const CANCELLED_KILL_WAIT_MS = 15_000;

/** True once `done` settles (either way); false when `signal` aborts or `ms` pass first. */
function settledOrAborted(done: Promise<unknown>, signal: AbortSignal | undefined, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const end = (settled: boolean) => () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(settled);
    };
    const aborted = end(false);
    const timer = setTimeout(end(false), ms);
    if (signal?.aborted === true) return aborted();
    signal?.addEventListener('abort', aborted, { once: true });
    done.then(end(true), end(true));
  });
}

/** Opens the resource (no process starts until the first cell). */
export async function openEvalResource(options: EvalResourceOptions = {}): Promise<EvalResource> {
  const resolve = options.interpreter ?? resolveInterpreter;
  // The kernels by owner and language (`<owner>\0<language>`).
  const slots = new Map<string, Slot>();
  // Kernels with a call in progress: a second call must not start (and leak) a second kernel.
  // A cancelled call settles for its caller at once while its kernel is still being killed: the
  // next call waits for that instead of being told the language is busy.
  const busy = new Map<string, { readonly done: Promise<unknown>; readonly signal?: AbortSignal }>();
  let closed = false;
  // Languages this resource has started a session kernel for (or reported one it did not start).
  const served = new Set<EvalLanguage>();
  // Child runs whose end is watched, and those that have ended (their kernels are killed).
  const watched = new Set<string>();
  const ended = new Set<string>();
  const watch = (caller: Caller): void => {
    if (caller.ended === undefined || watched.has(caller.key)) return;
    watched.add(caller.key);
    void caller.ended.then(async () => {
      ended.add(caller.key);
      const gone = [...slots].filter(([, s]) => s.owner === caller.key);
      for (const [key] of gone) slots.delete(key);
      await Promise.all(gone.map(([, s]) => s.kernel.close('the sub-agent or worker run it belonged to has ended')));
    });
  };
  const runOne = async (
    caller: Caller,
    language: EvalLanguage,
    code: string,
    cwd: string,
    cell: EvalCellOptions,
  ): Promise<EvalRun> => {
    const key = `${caller.key}\0${language}`;
    if (!isAbsolute(cwd) || !statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
      throw new EvalToolError(
        'EVAL_WORKDIR',
        `the workspace root '${cwd}' is not a local folder; eval runs kernels only in a local workspace`,
        { cwd },
      );
    const sandbox = await options.sandbox?.({ sessionId: options.sessionId ?? '', cwd });
    const runsIn = placeOf(sandbox);
    let slot = slots.get(key);
    let previousDeath: string | undefined;
    if (slot !== undefined && !slot.kernel.alive) {
      previousDeath = `the previous ${language} kernel had died (${slot.kernel.death}); a fresh one was started and earlier state is lost`;
      await slot.kernel.close();
      slots.delete(key);
      slot = undefined;
    }
    if (slot !== undefined && slot.runsIn !== runsIn && cell.reset !== true) {
      previousDeath = `the ${language} kernel moved from the ${slot.runsIn} to the ${runsIn}; a fresh one was started and earlier state is lost`;
      await slot.kernel.close();
      slots.delete(key);
      slot = undefined;
    }
    if (slot !== undefined && (cell.reset === true || slot.cwd !== cwd || slot.runsIn !== runsIn)) {
      await slot.kernel.close();
      slots.delete(key);
      slot = undefined;
    }
    const memoryMb = memoryLimitOf(options.memoryLimitMb);
    const interpreter =
      slot?.interpreter ??
      (sandbox === undefined
        ? resolve(language, cwd)
        : (sandbox.interpreter?.(language, cwd) ?? SANDBOX_INTERPRETERS[language]));
    const command = commandFor(language, interpreter, cwd, sandbox, memoryMb);
    // A kernel on the host is held to the path rules of the call that runs the cell.
    const held = sandbox === undefined && cell.hold !== undefined ? await cell.hold(command) : undefined;
    // The files as well as their paths: one replaced since the kernel started is not kept from it.
    const hidden = held === undefined ? '' : (held.identity ?? held.hidden.join('\0'));
    if (slot !== undefined && slot.hidden !== hidden) {
      previousDeath = `the ${language} kernel was restarted because the files the permission rules keep from it changed; earlier state is lost`;
      await slot.kernel.close();
      slots.delete(key);
      slot = undefined;
    }
    const started = slot === undefined;
    if (slot === undefined && caller.key === SESSION && !served.has(language)) {
      served.add(language);
      if (previousDeath === undefined && options.ranBefore?.(language) === true)
        previousDeath = `the ${language} kernel that ran this session's earlier cells ended when the session was closed (a kernel lives only while its session is open); a fresh one was started and earlier state is lost`;
    }
    if (slot === undefined) {
      const kernel = await KernelProcess.start(
        held === undefined ? command : { ...command, command: held.command, args: held.args },
        undefined,
        runsIn,
      );
      held?.started?.(kernel.pid);
      if (closed || ended.has(caller.key)) {
        await kernel.close();
        throw new EvalToolError(
          'EVAL_CLOSED',
          closed ? 'the session closed and its kernels were shut down' : 'the run this cell belonged to has ended',
        );
      }
      slot = { kernel, owner: caller.key, interpreter, cwd, runsIn, hidden };
      slots.set(key, slot);
    }
    const result = await slot.kernel.run(code, {
      ...cell,
      inactivityMs: options.inactivityMs ?? EVAL_INACTIVITY_MS,
      maxOutputChars: options.maxOutputChars ?? EVAL_MAX_OUTPUT_CHARS,
    });
    return {
      ...result,
      started,
      interpreter: slot.interpreter,
      runsIn,
      ...(previousDeath === undefined ? {} : { previousDeath }),
    };
  };
  return {
    async run(language, code, cwd, cell) {
      const caller = callerOf(options.runOwner, cell.runId);
      watch(caller);
      const key = `${caller.key}\0${language}`;
      for (let now = busy.get(key); now !== undefined; now = busy.get(key)) {
        if (now.signal?.aborted !== true)
          throw new EvalToolError(
            'EVAL_BUSY',
            `a ${language} cell is already running in this session; eval runs one cell at a time per language, so wait for it to finish (a cell cannot run a ${language} cell through tool('eval'): put the code in the cell itself, or use the other language)`,
            { language },
          );
        if (!(await settledOrAborted(now.done, cell.signal, CANCELLED_KILL_WAIT_MS)))
          throw new EvalToolError(
            cell.signal?.aborted === true ? 'EVAL_KERNEL_DIED' : 'EVAL_BUSY',
            cell.signal?.aborted === true
              ? 'the cell was cancelled before it started'
              : `the ${language} kernel of a cancelled cell is still being stopped after ${CANCELLED_KILL_WAIT_MS} ms; call eval again`,
            { language },
          );
      }
      if (closed) throw new EvalToolError('EVAL_CLOSED', 'the session closed and its kernels were shut down');
      const done = runOne(caller, language, code, cwd, cell);
      const entry = { done, ...(cell.signal === undefined ? {} : { signal: cell.signal }) };
      busy.set(key, entry);
      try {
        return await done;
      } finally {
        if (busy.get(key) === entry) busy.delete(key);
      }
    },
    kernels() {
      return [...slots.values()]
        .filter((s) => s.kernel.alive)
        .map((s) => ({ language: s.kernel.language, owner: s.owner, pid: s.kernel.pid }));
    },
    close: async () => {
      closed = true;
      const all = [...slots.values()];
      slots.clear();
      await Promise.all(all.map((s) => s.kernel.shutdown()));
    },
  };
}

/** The resource of the eval pack. */
export const evalResource: ToolResource<EvalResource> = {
  capability: EVAL_RESOURCE,
  opens: 'lazy',
  open: (context) => openEvalResource(sessionOptions(context)),
};

/**
 * The eval resource with options: a host that has a sandbox per conversation passes its lookup
 * (`evalResourceWith({ sandbox })`); the session's id is added.
 */
export function evalResourceWith(
  options: Omit<EvalResourceOptions, 'sessionId' | 'ranBefore' | 'runOwner'>,
): ToolResource<EvalResource> {
  return {
    capability: EVAL_RESOURCE,
    opens: 'lazy',
    open: (context) => openEvalResource({ ...options, ...sessionOptions(context) }),
  };
}
