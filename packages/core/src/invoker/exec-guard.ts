/**
 * The kernel's hold on the files a model-side command reaches: path rules are judged on the
 * arguments of file tools and on every file they touch (see `read-guard.ts`, `write-guard.ts`),
 * but a command opens files itself, however its text names them (`cat .env`, `python3 x.py`,
 * `cat "$(printf .e)nv"`). So before each command the files the path deny rules cover are listed
 * and handed to the workspace's `exec` as `hide`: it runs the command with them out of reach
 * (the local workspace: in its own mount namespace, see `@a3s-code/tools-workspace`) or refuses it.
 * A tool that starts a long-lived process itself (a kernel) asks `holdProcess` for the command
 * line to start instead.
 */
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import { PermissionDeniedError } from '../errors/tool-errors.js';
import type {
  DeniedWrites,
  ExecHiding,
  HeldProcessCommand,
  ProcessCommand,
  WorkspaceExec,
  WorkspaceExecResult,
  WorkspaceServices,
} from '../workspace/workspace-services.js';
import { deniedWrites, holdsWrites, mergeDeniedWrites, removeCreatedDenied } from './created-denied.js';
import { deniedProgramFiles, programsToKeep } from './denied-programs.js';
import { filesToHide } from './files-to-hide.js';
import { hiddenIdentity } from './hidden-identity.js';
import { type ConfigSnapshot, mendConfigs, snapshotConfigs, type WatchedConfig } from './git-config-guard.js';
import { heldGitStore, type HeldGitStore } from './git-store.js';
import type { CommandWatch, WatchState } from './git-watch.js';
import { markGit, undoDeniedGitWrites } from './git-index-writes.js';
import { heldFilesNote } from './held-files-note.js';
import { mkdirStateFolders } from '../store/state-folder.js';
import { takeLateWrites, returnLateWrites, watchLateWrites } from './late-writes.js';

// File times come from a coarse clock (a few milliseconds behind `Date.now()`).
const CLOCK_SLACK_MS = 50;

/**
 * True when `policy` has path rules a command must be held to (`ask`: its ask rules too), or
 * denies programs whose files are kept from commands (see `denied-programs.ts`).
 */
export function holdsCommands(policy: PermissionPolicy, ask: boolean): boolean {
  return (
    policy.hasReadDenyRules ||
    policy.hasWriteDenyRules ||
    programsToKeep(policy.deniedPrograms).length > 0 ||
    (ask && (policy.hasReadAskRules || policy.hasWriteAskRules))
  );
}

/**
 * `workspace` with its `exec` holding each command to the policy's path rules (see the module
 * comment), `note` adding to a command's notes, the git configuration files `configs` kept
 * from settings that run programs (see `git-config-guard.ts`), the checks of `watch` before and
 * after each command (see `git-watch.ts`; a command is refused when it gives a reason), and `env` set for every command
 * over its own; `workspace` itself when it runs no commands, or the policy has no such rule and no
 * `configs` are given.
 */
export function guardExec(
  workspace: WorkspaceServices,
  policy: PermissionPolicy,
  toolName: string,
  ask: boolean,
  note?: (result: WorkspaceExecResult) => string | undefined,
  configs?: readonly WatchedConfig[],
  env?: Readonly<Record<string, string>>,
  watch?: CommandWatch,
): WorkspaceServices {
  const exec = workspace.exec;
  if (exec === undefined || (!holdsCommands(policy, ask) && configs === undefined && watch === undefined))
    return workspace;
  const refuse = (): void => {
    if (watch?.refusal !== undefined) throw new PermissionDeniedError(toolName, watch.refusal);
  };
  // What the configuration files and the checks of `watch` put right after a command.
  const mendedAll = async (
    snapshots: readonly ConfigSnapshot[] | undefined,
    watched: WatchState | undefined,
    started: number,
    since?: bigint,
  ): Promise<DeniedWrites | undefined> => {
    const [configured, checked] = await Promise.all([
      mended(snapshots),
      watched === undefined ? undefined : watch?.after(watched, started, since),
    ]);
    return mergeDeniedWrites(configured, checked);
  };
  const readPatterns = readRulePatterns(workspace.root, policy, ask);
  // The files of programs the rules deny, where this workspace can keep files from a command (else
  // the rules' reading of the command line is all there is, as before).
  const programs = (): string[] =>
    policy.deniedPrograms.length === 0 ||
    exec.hiding?.({ command: 'true', args: [] }, { unreadable: [], unwritable: [workspace.root] }) === undefined
      ? []
      : deniedProgramFiles(policy.deniedPrograms, env?.PATH ?? process.env.PATH);
  // The files the rules keep from a command, and git's store when it holds one of them.
  const kept = async (): Promise<{ hide: ExecHiding; store: HeldGitStore | undefined }> => {
    // The runtime's state folders hold what the host's trusted calls did: kept from the command
    // by the read rules, they must exist before it starts, or a job it leaves running would see
    // what the runtime writes there later.
    if (readPatterns !== undefined) await mkdirStateFolders(workspace.root);
    const found = await filesToHide(workspace.root, policy, ask, toolName);
    const denied = programs();
    const hide = denied.length === 0 ? found : { ...found, unreadable: [...found.unreadable, ...denied] };
    if (readPatterns === undefined) return { hide, store: undefined };
    const store = await heldGitStore(workspace.root, readPatterns, hide.unreadable);
    if (store === undefined) return { hide, store };
    return { hide: { ...hide, unreadable: [...new Set([...hide.unreadable, ...store.paths])].sort() }, store };
  };
  const runHeld = async (
    request: Parameters<WorkspaceExec['run']>[0],
    earlier: DeniedWrites | undefined,
  ): ReturnType<WorkspaceExec['run']> => {
    const started = Date.now() - CLOCK_SLACK_MS;
    // Git's index and HEAD as the command starts: what it stages or commits is judged after it.
    const gitMark = holdsWrites(policy, ask) && workspace.git !== undefined ? markGit(workspace.root) : undefined;
    const gitWrites = async (): Promise<DeniedWrites | undefined> =>
      gitMark === undefined || workspace.git === undefined
        ? undefined
        : undoDeniedGitWrites(workspace.root, workspace.git, policy, ask, gitMark).catch((e: unknown) => ({
            removed: [],
            problem: `git's index could not be checked (${e instanceof Error ? e.message : String(e)})`,
          }));
    const [{ hide, store }, before, watched] = await Promise.all([
      kept(),
      configs === undefined ? undefined : snapshotConfigs(configs),
      watch?.before(),
    ]);
    const none = hide.unreadable.length === 0 && hide.unwritable.length === 0;
    // The checks after the command share one look through the workspace's folders begun after it ended.
    let ended = 0n;
    const settle = () => removeCreatedDenied(workspace.root, policy, ask, toolName, hide, started, ended);
    let result: Awaited<ReturnType<WorkspaceExec['run']>>;
    try {
      const given = env === undefined ? request : { ...request, env: { ...request.env, ...env } };
      result = await exec.run(none ? given : { ...given, hide });
    } catch (e) {
      ended = process.hrtime.bigint();
      // A command cancelled or failed part way may have created files too.
      if (holdsWrites(policy, ask)) await settle().catch(() => undefined);
      await gitWrites();
      await mendedAll(before, watched, started, ended).catch(() => undefined);
      throw e;
    }
    ended = process.hrtime.bigint();
    const told = note?.(result);
    const held = heldFilesNote(result, hide, policy, workspace.root, ask);
    const notes = [
      ...(store === undefined ? [] : [store.note]),
      ...(held === undefined ? [] : [held]),
      ...(told === undefined ? [] : [told]),
    ];
    const noted = notes.length === 0 ? result : { ...result, heldNotes: [...(result.heldNotes ?? []), ...notes] };
    if (!holdsWrites(policy, ask)) {
      const configured = await mendedAll(before, watched, started, ended);
      return configured === undefined ? noted : { ...noted, deniedWrites: configured };
    }
    const [created, configured] = await Promise.all([settle(), mendedAll(before, watched, started, ended)]);
    const own = mergeDeniedWrites(deniedWrites(created), await gitWrites(), configured);
    // A process the command left running may write after it returned: watched until the end.
    const pids = (result.backgroundProcesses ?? []).map((p) => p.pid);
    if (pids.length > 0) watchLateWrites(exec, { root: workspace.root, policy, ask, toolName, hide, started, pids });
    // What was created while it ran is its own (above); what the sweeps removed meanwhile is named too.
    const denied = mergeDeniedWrites(earlier, own, await takeLateWrites(exec, false));
    return denied === undefined ? noted : { ...noted, deniedWrites: denied };
  };
  const guarded: WorkspaceExec = {
    async run(request) {
      refuse();
      // What processes held before made since (a job an earlier command left running) is removed
      // before this command starts, so it never sees or uses it; this command's result names it,
      // or, when it fails, the next one.
      const earlier = holdsWrites(policy, ask) ? await takeLateWrites(exec) : undefined;
      try {
        return await runHeld(request, earlier);
      } catch (e) {
        if (earlier !== undefined) returnLateWrites(exec, earlier);
        throw e;
      }
    },
    ...(exec.close === undefined ? {} : { close: () => exec.close?.() ?? Promise.resolve() }),
    ...(exec.hiding === undefined ? {} : { hiding: (process, hide) => exec.hiding?.(process, hide) }),
    ...(exec.hostPid === undefined ? {} : { hostPid: (pid) => exec.hostPid?.(pid) }),
    ...(exec.prepare === undefined ? {} : { prepare: () => exec.prepare?.() ?? Promise.resolve() }),
  };
  // The files hidden from the last process this call held, and when: what it creates is judged
  // against them; and what processes held before had made meanwhile, removed as this hold began.
  let lastHold:
    | {
        readonly hide: ExecHiding;
        readonly started: number;
        readonly before: DeniedWrites | undefined;
        readonly configs: readonly ConfigSnapshot[] | undefined;
        readonly watched: WatchState | undefined;
      }
    | undefined;
  const settleHeldWrites = async (): Promise<DeniedWrites | undefined> => {
    const at = lastHold;
    lastHold = undefined;
    const configured = await mendedAll(at?.configs, at?.watched, at?.started ?? 0);
    if (!holdsWrites(policy, ask)) return configured;
    // A call that held a process is answered for its own window; one that did not (a later cell
    // of a kernel) for what the processes held before made since.
    if (at === undefined) return takeLateWrites(exec);
    const own = deniedWrites(await removeCreatedDenied(workspace.root, policy, ask, toolName, at.hide, at.started));
    // What the sweeps of a process left running removed meanwhile is named too.
    return mergeDeniedWrites(at.before, own, configured, await takeLateWrites(exec, false));
  };
  const holdProcess = async (process: ProcessCommand): Promise<HeldProcessCommand> => {
    // What a process held before made since (a kernel's thread between two cells) is removed
    // first: it is not this call's to keep from the process, and the kernel is not restarted for it.
    refuse();
    const before = holdsWrites(policy, ask) ? await takeLateWrites(exec) : undefined;
    const started = Date.now() - CLOCK_SLACK_MS;
    const { hide } = await kept();
    const snapshots = configs === undefined ? undefined : await snapshotConfigs(configs);
    const watched = await watch?.before();
    lastHold = { hide, started, before, configs: snapshots, watched };
    // The process runs on after this call (a kernel, a program under debug): watched until the end,
    // and about every second while it lives once its tool says which process it is.
    const late = { root: workspace.root, policy, ask, toolName, hide, started, pids: [] as number[] };
    if (holdsWrites(policy, ask)) watchLateWrites(exec, late);
    const hidden = [...hide.unreadable, ...hide.unwritable];
    const settleWrites = holdsWrites(policy, ask)
      ? async () => deniedWrites(await removeCreatedDenied(workspace.root, policy, ask, toolName, hide, started))
      : undefined;
    const watchPid = (pid: number): void => {
      if (pid > 0) watchLateWrites(exec, { ...late, pids: [pid] });
    };
    const settle = settleWrites === undefined ? {} : { settleWrites, started: watchPid };
    if (hidden.length === 0) {
      await exec.prepare?.();
      const apart = exec.hiding?.(process, hide) ?? process;
      return { command: apart.command, args: [...apart.args], hidden, ...settle };
    }
    // Taken before the process starts: a file replaced after it is another identity at the next hold.
    const identity = hiddenIdentity(hidden);
    const held = exec.hiding?.(process, hide);
    if (held === undefined)
      throw new PermissionDeniedError(
        toolName,
        `the path rules keep ${hidden.length === 1 ? 'a file' : `${hidden.length} files`} from the processes this call starts (${hidden.slice(0, 3).join(', ')}), and this workspace cannot hide files from a process; it was not started`,
      );
    return { command: held.command, args: [...held.args], hidden, identity, ...settle };
  };
  return withExec(workspace, guarded, holdProcess, settleHeldWrites);
}

/** What was taken out of the git configuration files since `before`, as a result reports it. */
async function mended(before: readonly ConfigSnapshot[] | undefined): Promise<DeniedWrites | undefined> {
  if (before === undefined) return undefined;
  const { restored, problem } = await mendConfigs(before);
  if (restored.length === 0 && problem === undefined) return undefined;
  return { removed: [], ...(restored.length === 0 ? {} : { restored }), ...(problem === undefined ? {} : { problem }) };
}

/** The services of `workspace` with `exec`, `holdProcess` and `settleHeldWrites` in place of its own. */
function withExec(
  workspace: WorkspaceServices,
  exec: WorkspaceExec,
  holdProcess: NonNullable<WorkspaceServices['holdProcess']>,
  settleHeldWrites?: WorkspaceServices['settleHeldWrites'],
): WorkspaceServices {
  return Object.freeze({
    root: workspace.root,
    capabilities: workspace.capabilities,
    exec,
    holdProcess,
    ...(settleHeldWrites === undefined ? {} : { settleHeldWrites }),
    ...(workspace.fs === undefined ? {} : { fs: workspace.fs }),
    ...(workspace.search === undefined ? {} : { search: workspace.search }),
    ...(workspace.git === undefined ? {} : { git: workspace.git }),
    ...(workspace.readDenied === undefined ? {} : { readDenied: workspace.readDenied }),
    ...(workspace.writeDenied === undefined ? {} : { writeDenied: workspace.writeDenied }),
  });
}

const NOTHING_KEPT: ExecHiding = Object.freeze({ unreadable: [], unwritable: [] });
const apart = new WeakMap<WorkspaceServices, WorkspaceServices>();

/**
 * `workspace` with a `holdProcess` that keeps nothing from the process but lets the workspace's
 * `exec` start it apart from the host (`hiding` with nothing to hide), where the workspace has no
 * `holdProcess` of its own; `workspace` itself where its `exec` cannot.
 */
export function withApartHold(workspace: WorkspaceServices): WorkspaceServices {
  const exec = workspace.exec;
  if (exec?.hiding === undefined || workspace.holdProcess !== undefined) return workspace;
  let held = apart.get(workspace);
  if (held === undefined) {
    held = withExec(workspace, exec, async (process: ProcessCommand): Promise<HeldProcessCommand> => {
      await exec.prepare?.();
      const started = exec.hiding?.(process, NOTHING_KEPT) ?? process;
      return { command: started.command, args: [...started.args], hidden: [] };
    });
    apart.set(workspace, held);
  }
  return held;
}

/**
 * The path patterns of the read rules a command is held to (`ask`: the ask rules too), absolute
 * ones under `root` made workspace-relative; `undefined` when there are no read rules.
 */
function readRulePatterns(root: string, policy: PermissionPolicy, ask: boolean): string[] | undefined {
  if (!policy.hasReadDenyRules && !(ask && policy.hasReadAskRules)) return undefined;
  const base = root.replace(/\/+$/, '');
  const all = [...policy.pathPatterns('read'), ...(ask ? policy.pathPatterns('read', true) : [])];
  return [...new Set(all.map((p) => (p.startsWith(`${base}/`) ? p.slice(base.length + 1) : p)))];
}
