/**
 * The kernel's hold on every file a model-side call reads through the workspace: a path deny rule
 * of the file-reading tool (`Read(.env)`, `Read(secret/**)`) holds whichever tool reads (`read`,
 * `grep`, `glob`, `ls`, structural search, `program` and `batch` children, a pack's own tool) and
 * however the path is spelled: as given, normalised (`./`, `..`, `//`, absolute under the root)
 * and with symbolic links resolved (when the root is a local folder).
 *
 * Reading a denied file is refused (`PERMISSION_DENIED`). Listings and searches over a folder
 * leave denied files out instead of failing: `ls .`, `glob **` and `grep SECRET` run as usual and
 * never show a denied file's name, path or lines. A search whose own `path` is a denied file is
 * refused. Metadata (`stat`) stays visible: it holds no content. The fast whole-result calls a
 * search backend may add beyond core's interface are not passed on, so tools use the filtered ones.
 * Tools that learn of files another way (a language server, git) ask the workspace's `readDenied`.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { PermissionDeniedError } from '../errors/tool-errors.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type {
  WorkspaceCallOptions,
  WorkspaceDirEntry,
  WorkspaceFileIdentity,
  WorkspaceFileSystem,
  WorkspaceGlobRequest,
  WorkspaceGrepMatch,
  WorkspaceGrepRequest,
  WorkspaceSearch,
  WorkspaceServices,
} from '../workspace/workspace-services.js';
import { filesToHide } from './files-to-hide.js';
import { keptInodeJudge, sameFileJudge, sameInodeJudge } from './link-names.js';
import type { HoldAsk } from './permission-step.js';
import {
  heldAskRule,
  judging,
  linkTargetVerdict,
  reachedVia,
  realRootOf,
  type SpelledPath,
  spelledPath,
  swappedTo,
  unconfirmed,
  type Verdict,
  viaLink,
} from './write-guard.js';

/** What the guard reports when it refuses a read (the kernel emits `permissionDenied`). */
export type ReadDenied = (path: string, rule: string) => void;

/**
 * The workspace a call sees: `workspace` itself when the policy has no path deny rule for reads,
 * else one whose reads, listings and searches are held to those rules (see the module comment).
 */
export function guardReads(
  workspace: WorkspaceServices,
  policy: PermissionPolicy,
  toolName: string,
  onDenied: ReadDenied,
  holdAsk: HoldAsk = false,
): WorkspaceServices {
  const serves = workspace.fs !== undefined || workspace.search !== undefined || workspace.git !== undefined;
  const ask = policy.hasReadAskRules || holdAsk === 'allow' ? holdAsk : false;
  if ((!policy.hasReadDenyRules && ask === false) || !serves) return workspace;
  let realRoot: Promise<string | undefined> | undefined;
  const rootReal = (): Promise<string | undefined> => {
    realRoot ??= realRootOf(workspace.root);
    return realRoot;
  };
  const spell = (path: string): Promise<SpelledPath> => spelledPath(workspace.root, rootReal(), path);
  const verdictOn = (spelled: SpelledPath): Verdict | undefined => {
    const denying = policy.denyingReadRule([...spelled.lexical, ...spelled.linked]);
    if (denying !== undefined) return { rule: denying, ask: false };
    const asking = heldAskRule((p) => policy.askingReadRule(p), spelled, ask);
    if (asking !== undefined) return { rule: asking, ask: true };
    return ask === 'allow' ? linkTargetVerdict(policy, toolName, workspace.root, spelled) : undefined;
  };
  const verdictFor = async (path: string): Promise<Verdict | undefined> =>
    typeof path === 'string' ? verdictOn(await spell(path)) : undefined;
  const ruleFor = async (path: string): Promise<string | undefined> => (await verdictFor(path))?.rule;
  // A file with several names is refused by any of them when one is a kept file (a hard link).
  const sameFile = sameFileJudge(
    () => (realRoot ??= realRootOf(workspace.root)),
    async () =>
      (await filesToHide(workspace.root, policy, ask !== false, toolName, undefined, false, false)).unreadable,
  );
  const linkVerdict = async (
    path: string,
  ): Promise<{ rule: string; ask: boolean; to?: string; sameFile?: string } | undefined> => {
    const same = await sameFile(path);
    if (same === undefined) return undefined;
    return { rule: policy.denyingReadRule([same]) ?? 'the path rules', ask: false, sameFile: same };
  };
  const sameInode = sameInodeJudge(
    () => (realRoot ??= realRootOf(workspace.root)),
    async () =>
      (await filesToHide(workspace.root, policy, ask !== false, toolName, undefined, false, false)).unreadable,
  );
  // The file a backend has open, when it may be another name of a kept file: judged by its inode.
  const inodeVerdict = async (
    file: WorkspaceFileIdentity,
    reached: string,
  ): Promise<{ rule: string; ask: boolean; to?: string; sameFile?: string } | undefined> => {
    const same = await sameInode(file);
    // The file reached is itself the kept one: its path was judged above.
    if (same === undefined || same === reached) return undefined;
    return { rule: policy.denyingReadRule([same]) ?? 'the path rules', ask: false, sameFile: same };
  };
  const contentVerdict = async (path: string) => (await verdictFor(path)) ?? (await linkVerdict(path));
  // `reached`: the file the backend reached by a link the path names (swapped in, perhaps, since it was judged).
  const refuse = async (path: string | undefined, reached?: string, file?: WorkspaceFileIdentity): Promise<void> => {
    if (path === undefined) return;
    const verdict =
      reached === undefined
        ? await contentVerdict(path)
        : (verdictOn(await reachedVia(spell, path, reached)) ??
          (file === undefined ? await linkVerdict(reached) : await inodeVerdict(file, reached)));
    if (verdict === undefined) return;
    onDenied(path, verdict.rule);
    const same = 'sameFile' in verdict ? verdict.sameFile : undefined;
    throw new PermissionDeniedError(
      toolName,
      same !== undefined
        ? `${verdict.rule} (reading ${path}, which is another name, a hard link, of ${same})`
        : verdict.to !== undefined
          ? viaLink(verdict.rule, 'read', path, verdict.to)
          : verdict.ask
            ? unconfirmed(verdict.rule, 'reading', path)
            : `${verdict.rule} (reading ${path}${reached === undefined ? '' : swappedTo(reached)})`,
    );
  };
  const hidden = async (path: string): Promise<boolean> => (await ruleFor(path)) !== undefined;
  // A search's matches show content: a file that is another name of a kept file is left out too.
  const keptInode = keptInodeJudge(
    rootReal,
    async () =>
      (await filesToHide(workspace.root, policy, ask !== false, toolName, undefined, false, false)).unreadable,
  );
  // A matched file is looked at once: gone by the time it is judged (a name made and removed again,
  // perhaps another name of a kept file), it cannot be judged and its lines are withheld; with
  // several names, it is judged by that one look's inode.
  const byOneLook = async (path: string): Promise<boolean> => {
    const base = await rootReal();
    if (base === undefined) return (await linkVerdict(path)) !== undefined;
    const s = await stat(isAbsolute(path) ? path : join(base, path)).catch(() => undefined);
    if (s === undefined || !s.isFile()) return true;
    return (await keptInode(s)) !== undefined;
  };
  const withheld = async (path: string): Promise<boolean> =>
    (await verdictFor(path)) !== undefined || (await byOneLook(path));
  const fs = workspace.fs === undefined ? undefined : guardFs(workspace.fs, refuse, hidden);
  const search = workspace.search === undefined ? undefined : guardSearch(workspace.search, refuse, hidden, withheld);
  return Object.freeze({
    root: workspace.root,
    capabilities: workspace.capabilities,
    ...(fs === undefined ? {} : { fs }),
    ...(search === undefined ? {} : { search }),
    ...(workspace.exec === undefined ? {} : { exec: workspace.exec }),
    ...(workspace.git === undefined ? {} : { git: workspace.git }),
    readDenied: ruleFor,
    ...(workspace.writeDenied === undefined ? {} : { writeDenied: workspace.writeDenied }),
    ...(workspace.holdProcess === undefined ? {} : { holdProcess: workspace.holdProcess }),
    ...(workspace.settleHeldWrites === undefined ? {} : { settleHeldWrites: workspace.settleHeldWrites }),
  });
}

type Refuse = (path: string | undefined, reached?: string, file?: WorkspaceFileIdentity) => Promise<void>;
type Hidden = (path: string) => Promise<boolean>;

function childPath(folder: string, name: string): string {
  const base = folder.replaceAll('\\', '/').replace(/\/+$/, '');
  return base === '' || base === '.' ? name : `${base}/${name}`;
}

function guardFs(fs: WorkspaceFileSystem, refuse: Refuse, hidden: Hidden): WorkspaceFileSystem {
  const chunks = fs.readChunks?.bind(fs);
  return {
    async readFile(path, options) {
      await refuse(path);
      // What the backend reaches is judged again: a link swapped in since the check above.
      return fs.readFile(
        path,
        judging(options, (real, file) => refuse(path, real, file)),
      );
    },
    // A file read a chunk at a time is held to the same rules, before its first byte.
    ...(chunks === undefined
      ? {}
      : {
          async *readChunks(path: string, options?: WorkspaceCallOptions): AsyncIterable<Uint8Array> {
            await refuse(path);
            yield* chunks(
              path,
              judging(options, (real, file) => refuse(path, real, file)),
            );
          },
        }),
    stat: (path, options) => fs.stat(path, options),
    ...(fs.statMany === undefined ? {} : { statMany: fs.statMany.bind(fs) }),
    async list(path, options) {
      // The folder a link led to, when the listing reached another than the path names.
      let real: string | undefined;
      const entries = await fs.list(
        path,
        judging(options, async (at) => {
          real = at;
        }),
      );
      const shown: WorkspaceDirEntry[] = [];
      for (const entry of entries) {
        const kept =
          (await hidden(childPath(path, entry.name))) ||
          (real !== undefined && (await hidden(childPath(real, entry.name))));
        if (!kept) shown.push(entry);
      }
      return shown.length === entries.length ? entries : shown;
    },
    writeFile: (path, data, options) => fs.writeFile(path, data, options),
    remove: (path, options) => fs.remove(path, options),
  };
}

/** A search that keeps a listing of every file for change snapshots (see `workspace-snapshot.ts`). */
type KeptListing = {
  listAllFiles?: (maxFiles: number, signal?: AbortSignal) => Promise<readonly string[] | undefined>;
  ignoreBaseline?: unknown;
  unrecorded?: () => readonly string[];
};

function guardSearch(search: WorkspaceSearch, refuse: Refuse, hidden: Hidden, withheld: Hidden): WorkspaceSearch {
  const { listAllFiles: all, ignoreBaseline, unrecorded } = search as KeptListing;
  const kept: KeptListing =
    typeof all !== 'function'
      ? {}
      : {
          // What the workspace's ignore files held when it was opened (see `gitDirtySnapshot`).
          ...(ignoreBaseline === undefined ? {} : { ignoreBaseline }),
          // The host's own output files, left out of snapshots (see `host-outputs.ts`).
          ...(typeof unrecorded === 'function' ? { unrecorded: () => unrecorded.call(search) } : {}),
          // The names the rules hide are left out, as from a glob.
          listAllFiles: async (maxFiles, signal) => {
            const files = await all.call(search, maxFiles, signal);
            if (files === undefined) return undefined;
            const shown: string[] = [];
            for (const path of files) if (!(await hidden(path))) shown.push(path);
            return shown;
          },
        };
  return {
    ...kept,
    async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
      await refuse(request.path);
      // A file the backend opened to search that may be another name of a kept file is judged first.
      const judged = judging(request, (real, file) => refuse(request.path ?? real, real, file));
      // Matches arrive grouped by file: each file is judged once.
      let last: string | undefined;
      let skip = false;
      for await (const m of search.grep(judged)) {
        if (m.path !== last) {
          last = m.path;
          skip = await withheld(m.path);
        }
        if (!skip) yield m;
      }
    },
    async *glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
      await refuse(request.path);
      for await (const path of search.glob(request)) if (!(await hidden(path))) yield path;
    },
  };
}
