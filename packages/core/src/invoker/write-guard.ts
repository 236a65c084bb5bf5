/**
 * The kernel's hold on every file a model-side call writes or removes through the workspace: a
 * path deny rule of a file-writing tool (`Write(secret/**)`, `Edit(…)`, `Patch(…)`) refuses the
 * write whichever tool makes it (`write`, `edit`, `patch`, a structural edit, a rename, a pack's
 * own tool) and however the path is spelled: as given, normalised (`./`, `..`, `//`, absolute
 * under the root) and with symbolic links resolved (when the root is a local folder). The policy's
 * check before the call sees only the arguments; this one sees the files. A call allowed without
 * a confirmation (while a person would be asked) is held to the path ask rules the same way: a
 * file it was never asked about is refused, not written. Tools that change files
 * other than through `fs` (git) ask the workspace's `writeDenied` before changing any.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { A3sError } from '@a3s-code/effect';
import { PermissionDeniedError, ToolExecutionError } from '../errors/tool-errors.js';
import { canonicalPath } from '../permissions/path-spelling.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type {
  WorkspaceCallOptions,
  WorkspaceFileIdentity,
  WorkspaceFileSystem,
  WorkspaceServices,
  WorkspaceWriteOptions,
} from '../workspace/workspace-services.js';
import type { HoldAsk } from './permission-step.js';
import { filesToHide } from './files-to-hide.js';
import { sameFileJudge, sameInodeJudge } from './link-names.js';

/** What the guard reports when it refuses a write (the kernel emits `permissionDenied`). */
export type WriteDenied = (path: string, rule: string) => void;

/**
 * `path` relative to `root`, lexically normalised (`''` for the root itself), or `undefined` when
 * it leaves the root. Backslashes count as separators too: one spelling more to hold to the rules.
 */
function lexicalPath(root: string, path: string): string | undefined {
  const rel = canonicalPath(path.replaceAll('\\', '/'), root.replaceAll('\\', '/'));
  return rel === '.' ? '' : rel;
}

/** The real path of `abs` (of its deepest existing ancestor, with the rest appended). */
async function realOf(abs: string): Promise<string | undefined> {
  const rest: string[] = [];
  let at = abs;
  for (let i = 0; i < 64; i++) {
    try {
      return join(await realpath(at), ...rest.reverse());
    } catch {
      const cut = at.lastIndexOf(sep);
      if (cut <= 0) return undefined;
      rest.push(at.slice(cut + 1));
      at = at.slice(0, cut);
    }
  }
  return undefined;
}

/** `rel` (workspace-relative, `''` for the root) as an absolute path under `base`. */
function under(base: string, rel: string): string {
  const b = base.replaceAll('\\', '/').replace(/\/+$/, '');
  return rel === '' ? b || '/' : `${b}/${rel}`;
}

/** The spellings of one workspace file: those of the path as named, and those reached through symbolic links. */
export interface SpelledPath {
  /** As given, normalised, and absolute under the root (as given and as resolved). */
  readonly lexical: readonly string[];
  /** Where symbolic links lead, when that is elsewhere in the workspace (relative and absolute); else empty. */
  readonly linked: readonly string[];
}

/**
 * The spellings of the workspace file `path` names: as given, normalised, and through symbolic
 * links, each also as an absolute path under the root as given and as resolved (an absolute rule,
 * `Read(/work/app/.env)`, holds whichever spelling the call used).
 */
export async function spelledPath(
  root: string,
  realRoot: Promise<string | undefined>,
  path: string,
): Promise<SpelledPath> {
  const lexical = new Set([path]);
  const linked = new Set<string>();
  const rel = lexicalPath(root, path);
  const absoluteRoot = isAbsolute(root);
  if (rel !== undefined) {
    lexical.add(rel);
    if (absoluteRoot) lexical.add(under(root, rel));
  }
  const real = await realRoot;
  if (real !== undefined && rel !== undefined) {
    lexical.add(under(real, rel));
    const target = await realOf(join(real, rel));
    const viaLinks = target === undefined ? undefined : relative(real, target);
    if (viaLinks !== undefined && viaLinks !== '' && !viaLinks.startsWith('..') && !isAbsolute(viaLinks)) {
      const to = viaLinks.split(sep).join('/');
      if (to !== rel) for (const s of [to, under(real, to), ...(absoluteRoot ? [under(root, to)] : [])]) linked.add(s);
    }
  }
  return { lexical: [...lexical], linked: [...linked].filter((s) => !lexical.has(s)) };
}

/** Every spelling of the workspace file `path` names (see {@link spelledPath}), in one list. */
export async function spellings(root: string, realRoot: Promise<string | undefined>, path: string): Promise<string[]> {
  const { lexical, linked } = await spelledPath(root, realRoot, path);
  return [...lexical, ...linked];
}

/**
 * The path ask rule a call must not pass unconfirmed: with `true` (nobody confirmed the files) any
 * rule covering the file; with `links` (a person confirmed the paths the call names) a rule
 * covering where a symbolic link leads that does not cover the path as named.
 */
export function heldAskRule(
  asking: (paths: readonly string[]) => string | undefined,
  spelled: SpelledPath,
  hold: HoldAsk,
): string | undefined {
  if (hold === false) return undefined;
  if (hold === true || hold === 'allow') return asking([...spelled.lexical, ...spelled.linked]);
  if (spelled.linked.length === 0) return undefined;
  const viaLink = asking(spelled.linked);
  return viaLink !== undefined && asking(spelled.lexical) !== viaLink ? viaLink : undefined;
}

/** The real path of a workspace root that is a local folder, else `undefined`. */
export function realRootOf(root: string): Promise<string | undefined> {
  return isAbsolute(root) ? realpath(root).catch(() => undefined) : Promise.resolve(undefined);
}

/**
 * The workspace a call sees: `workspace` itself when the policy has no path deny rule for
 * writes, else one whose `fs.writeFile` and `fs.remove` first hold the path to those rules.
 * A refused write throws `PERMISSION_DENIED`; once the call has written something through it,
 * a refusal is a `TOOL_EXECUTION` failure instead, so the change record counts the call as a
 * change with unknown paths (it may have left earlier writes behind).
 */
export function guardWrites(
  workspace: WorkspaceServices,
  policy: PermissionPolicy,
  toolName: string,
  onDenied: WriteDenied,
  holdAsk: HoldAsk = false,
): WorkspaceServices {
  const fs = workspace.fs;
  const ask = policy.hasWriteAskRules || holdAsk === 'allow' ? holdAsk : false;
  if (fs === undefined || (!policy.hasWriteDenyRules && !ask)) return workspace;
  let realRoot: Promise<string | undefined> | undefined;
  let wrote = false;
  const rootReal = (): Promise<string | undefined> => {
    realRoot ??= realRootOf(workspace.root);
    return realRoot;
  };
  const spell = (path: string): Promise<SpelledPath> => spelledPath(workspace.root, rootReal(), path);
  const verdictOn = (spelled: SpelledPath): Verdict | undefined => {
    const denying = policy.denyingWriteRule([...spelled.lexical, ...spelled.linked]);
    if (denying !== undefined) return { rule: denying, ask: false };
    const asking = heldAskRule((p) => policy.askingWriteRule(p), spelled, ask);
    if (asking !== undefined) return { rule: asking, ask: true };
    return ask === 'allow' ? linkTargetVerdict(policy, toolName, workspace.root, spelled) : undefined;
  };
  const verdictFor = async (path: string): Promise<Verdict | undefined> =>
    typeof path === 'string' ? verdictOn(await spell(path)) : undefined;
  // Writing a file with several names changes each: refused when one is a kept file (a hard link).
  const sameFile = sameFileJudge(
    () => (realRoot ??= realRootOf(workspace.root)),
    async () => (await filesToHide(workspace.root, policy, ask !== false, toolName, undefined, true, false)).unwritable,
  );
  const sameInode = sameInodeJudge(
    () => (realRoot ??= realRootOf(workspace.root)),
    async () => (await filesToHide(workspace.root, policy, ask !== false, toolName, undefined, true, false)).unwritable,
  );
  // `reached`/`file`: the file the backend reached (by a link, or one with several names);
  // `earlier`: whether the call wrote before this write.
  const check = async (
    path: string,
    content = false,
    reached?: string,
    earlier = wrote,
    file?: WorkspaceFileIdentity,
  ): Promise<void> => {
    // By inode: a file with several names, or the one named whose name may have changed since;
    // a file reached through a symbolic link is judged by where the link led (below).
    const throughLink = reached !== undefined && reached !== lexicalPath(workspace.root, path);
    const same = !content
      ? undefined
      : file === undefined
        ? await sameFile(reached ?? path)
        : file.nlink > 1 || !throughLink
          ? await otherThan(reached, await sameInode(file))
          : undefined;
    const verdict =
      (reached === undefined ? await verdictFor(path) : verdictOn(await reachedVia(spell, path, reached))) ??
      (same === undefined ? undefined : { rule: policy.denyingWriteRule([same]) ?? 'the path rules', ask: false });
    if (verdict === undefined) return;
    onDenied(path, verdict.rule);
    const denied: A3sError = new PermissionDeniedError(
      toolName,
      same !== undefined && !('to' in verdict)
        ? `${verdict.rule} (writing ${path}, which is another name, a hard link, of ${same})`
        : verdict.to !== undefined
          ? viaLink(verdict.rule, 'write', path, verdict.to)
          : verdict.ask
            ? unconfirmed(verdict.rule, 'writing', path)
            : `${verdict.rule} (writing ${path}${reached === undefined ? '' : swappedTo(reached)})`,
    );
    throw earlier ? new ToolExecutionError(toolName, denied) : denied;
  };
  const chunks = fs.readChunks?.bind(fs);
  const guarded: WorkspaceFileSystem = {
    readFile: (path, options) => fs.readFile(path, options),
    ...(chunks === undefined ? {} : { readChunks: chunks }),
    stat: (path, options) => fs.stat(path, options),
    ...(fs.statMany === undefined ? {} : { statMany: fs.statMany.bind(fs) }),
    list: (path, options) => fs.list(path, options),
    async writeFile(path: string, data: string | Uint8Array, options?: WorkspaceWriteOptions) {
      await check(path, true);
      const earlier = wrote;
      wrote = true;
      // What the backend reaches is judged again: a link swapped in since the check above.
      return fs.writeFile(
        path,
        data,
        judging(options, (real, file) => check(path, true, real, earlier, file)),
      );
    },
    async remove(path: string, options?: WorkspaceCallOptions) {
      await check(path);
      const earlier = wrote;
      wrote = true;
      return fs.remove(
        path,
        judging(options, (real, file) => check(path, false, real, earlier, file)),
      );
    },
  };
  return Object.freeze({
    root: workspace.root,
    capabilities: workspace.capabilities,
    fs: guarded,
    ...(workspace.search === undefined ? {} : { search: workspace.search }),
    ...(workspace.exec === undefined ? {} : { exec: workspace.exec }),
    ...(workspace.git === undefined ? {} : { git: workspace.git }),
    ...(workspace.readDenied === undefined ? {} : { readDenied: workspace.readDenied }),
    ...(workspace.holdProcess === undefined ? {} : { holdProcess: workspace.holdProcess }),
    ...(workspace.settleHeldWrites === undefined ? {} : { settleHeldWrites: workspace.settleHeldWrites }),
    writeDenied: async (path: string) => (await verdictFor(path))?.rule,
  });
}

/** What a guard decided against a path: the rule, whether it asks, and where a link led. */
export interface Verdict {
  readonly rule: string;
  readonly ask: boolean;
  readonly to?: string;
}

/**
 * The spellings of the file a call reached at `reached` (its real workspace-relative path, told by
 * the backend) while naming `path`: those of `path` as named, and those of `reached` as where
 * links led (first, so a verdict on a link's target names it).
 */
export async function reachedVia(
  spell: (path: string) => Promise<SpelledPath>,
  path: string,
  reached: string,
): Promise<SpelledPath> {
  const [named, there] = await Promise.all([spell(path), spell(reached)]);
  const lexical = new Set(named.lexical);
  const linked = [...there.lexical, ...there.linked, ...named.linked].filter((s) => !lexical.has(s));
  return { lexical: named.lexical, linked: [...new Set(linked)] };
}

/**
 * `options` with a `reached` hook that runs `judge` on the entry the backend reached, then any
 * hook the caller set.
 */
export function judging<O extends WorkspaceCallOptions>(
  options: O | undefined,
  judge: (real: string, file?: WorkspaceFileIdentity) => Promise<void>,
): O {
  const outer = options?.reached;
  return {
    ...(options as O),
    reached: async (real: string, file?: WorkspaceFileIdentity) => {
      await judge(real, file);
      await outer?.(real, file);
    },
  };
}

/** `same`, unless it is the file `reached` itself (judged by its path, not as another name of it). */
async function otherThan(reached: string | undefined, same: string | undefined): Promise<string | undefined> {
  return same === undefined || same === reached ? undefined : same;
}

/** How a refusal names the file a call reached through a symbolic link it did not name. */
export function swappedTo(reached: string): string {
  return `, which led through a symbolic link to ${reached} when it was opened`;
}

/** Why a file under an ask rule was refused to a call nobody confirmed. */
export function unconfirmed(rule: string, doing: 'writing' | 'reading', path: string): string {
  return `${rule} needs a confirmation this call did not get (${doing} ${path}); name the file by its own path in the call's arguments, so that it can be confirmed`;
}

/**
 * For a call allowed unasked for the path it names: the verdict on where a symbolic link takes
 * that path, when the policy does not allow the call there (the rule that decided, and the place).
 */
export function linkTargetVerdict(
  policy: PermissionPolicy,
  toolName: string,
  root: string,
  spelled: SpelledPath,
): { rule: string; ask: true; to: string } | undefined {
  const to = spelled.linked[0];
  if (to === undefined) return undefined;
  const there = policy.evaluate(toolName, { file_path: to, path: to }, root);
  return there.decision === 'allow' ? undefined : { rule: there.rule, ask: true, to };
}

/** Why a read or write through a symbolic link to a place the call was not allowed to reach was refused. */
export function viaLink(rule: string, doing: 'read' | 'write', path: string, to: string): string {
  const why = rule === 'default' ? 'no allow rule covers' : `${rule} does not allow without a confirmation`;
  return `${path} leads through a symbolic link to ${to}, which ${why}; the call was allowed to ${doing} the path it names only. Name ${to} itself in the call's arguments, so that it can be confirmed`;
}
