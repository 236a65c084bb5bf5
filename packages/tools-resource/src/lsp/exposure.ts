/**
 * Whether a language server's text may quote a file the call may not read. A hover shows a
 * declaration's type (a constant's literal type, an interface's members), a diagnostic's message
 * quotes the types and names it is about, a code action's title names declarations; any of them
 * can carry a hidden file's text once the server has read that file, also through a visible file
 * (`const copy = KEY` shows `KEY`'s literal type on `copy`). Which answer does is not knowable
 * from outside, so while the project the server holds for a file reads a hidden file, such text
 * is withheld for every file of that project (fail closed). The project's files are the
 * server's own list when it gives one (TypeScript's program), else every workspace file the
 * server could read (by extension; any file for servers that can include files of any name).
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { uriOf } from './client.js';
import { type HiddenRule, NOTHING_HIDDEN } from './hidden-files.js';
import { OutsideCheck } from './outside-text.js';
import { linkOutside } from './project-links.js';
import { manifestOutside, sourceOutside } from './project-outside.js';
import type { ServerSpec } from './servers.js';
import type { SyncedFile } from './session-files.js';
import { inPackage, isInside, realOrSelf } from './workspace-paths.js';

/** Why a server's text is withheld (a sentence naming the read deny rule), or `undefined` when it is shown. */
export type Exposure = string | undefined;

/** More workspace entries than this, and the check fails closed. */
const SCAN_MAX_ENTRIES = 200_000;
const CHECK_BATCH = 64;

/** The sentence naming the rule that makes a server's text withheld. */
function because(rule: string, server: string): string {
  return `${rule} hides a file the ${server} server reads for this project`;
}

/** The first rule hiding one of `files` (absolute paths), or `undefined`. */
export async function firstHidden(files: readonly string[], hidden: HiddenRule): Promise<string | undefined> {
  for (let i = 0; i < files.length; i += CHECK_BATCH) {
    const rules = await Promise.all(files.slice(i, i + CHECK_BATCH).map((f) => hidden(f)));
    const rule = rules.find((r) => r !== undefined);
    if (rule !== undefined) return rule;
  }
  return undefined;
}

/** The exposure of the project `files` (absolute paths) a server of `spec` read. */
export async function filesExposure(
  spec: ServerSpec,
  files: readonly string[],
  hidden: HiddenRule,
  workspaceRoot?: string,
): Promise<Exposure> {
  if (workspaceRoot !== undefined) {
    const outside = await firstOutside(files, workspaceRoot);
    if (outside !== undefined) return `the ${spec.id} server's project reads ${outside}, outside the workspace`;
  }
  if (hidden === NOTHING_HIDDEN) return undefined;
  const rule = await firstHidden(files, hidden);
  return rule === undefined ? undefined : because(rule, spec.id);
}

/**
 * The first of `files` (absolute paths) that is outside the workspace, also through a symbolic
 * link, and not part of an installed package (a file whose real path is in a `node_modules`
 * folder, where a server's own library and a monorepo's hoisted packages are); `undefined` when
 * there is none. A path through a `node_modules` link (npm link, a `file:` dependency) counts by
 * where it leads: a package whose files are outside the workspace and in no `node_modules`
 * folder is outside.
 */
export async function firstOutside(files: readonly string[], workspaceRoot: string): Promise<string | undefined> {
  const realRoot = await realpath(workspaceRoot).catch(() => workspaceRoot);
  const within = (abs: string) => isInside(workspaceRoot, abs) || isInside(realRoot, abs);
  // Resolved in slices on this thread (a few µs each, where a round trip through the file-system
  // threads costs several times that), yielding between slices.
  for (let i = 0; i < files.length; i += REALPATH_SLICE) {
    if (i > 0) await new Promise<void>((r) => setImmediate(r));
    for (const f of files.slice(i, i + REALPATH_SLICE)) {
      const real = realOrSelf(f);
      if (!within(real) && !inPackage(real)) return real;
    }
  }
  return undefined;
}

const REALPATH_SLICE = 512;

/**
 * Whether the server of the synced file `f` may quote a file the call may not read in its answers
 * about `f`: a hidden file, or a file outside the workspace: one its configuration points it at
 * (followed through the files it extends), one it lists, or for a server that lists none, one its
 * manifests or the file's includes name, or a link in the workspace leads to.
 */
export async function projectExposure(
  f: SyncedFile,
  workspaceRoot: string,
  hidden: HiddenRule,
  signal: AbortSignal,
): Promise<Exposure> {
  const configured = () => f.spec.outsidePaths?.(f.root, workspaceRoot);
  if (f.spec.projectFiles !== undefined) {
    let files: readonly string[] | undefined;
    try {
      files = await f.spec.projectFiles((m, p, s) => f.client.request(m, p, s), uriOf(f.abs), signal);
    } catch {
      // the server cannot tell: every file it could read counts
    }
    if (files !== undefined) return (await filesExposure(f.spec, files, hidden, workspaceRoot)) ?? configured();
    const why = configured();
    if (why !== undefined) return why;
    if (hidden === NOTHING_HIDDEN)
      return `the ${f.spec.id} server did not list its project's files, so they may include a file outside the workspace`;
  } else {
    const check = new OutsideCheck(workspaceRoot);
    const outside =
      configured() ??
      manifestOutside(f.root, check) ??
      sourceOutside(f.text, f.abs, check) ??
      (await linkedOutside(f, workspaceRoot, signal)) ??
      (await linkOutside(f.spec, workspaceRoot, signal));
    if (outside !== undefined) return outside;
  }
  if (hidden === NOTHING_HIDDEN) return undefined;
  return workspaceExposure(f.spec, workspaceRoot, hidden);
}

/** Why a server's answers that a file could decide are not shown (see {@link blindExposure}). */
export interface Blind {
  /** A sentence naming the file outside the workspace, or the read deny rule hiding a file. */
  readonly why: string;
  /** The project reads a file outside the workspace (else a hidden file it could not be kept from). */
  readonly outside: boolean;
}

/**
 * Why which problems (and fixes) the server of the synced file `f` reports, and whether any, is
 * not shown but for syntax errors: its project reads a file outside the workspace, which `read`
 * refuses (a model-written file can test that file's text at the type level, one character per
 * line, and read it back from which lines carry errors), or a hidden file the server could not be
 * kept from (see `server-hold.ts`); `undefined` when its answers may be shown. Asked whether or
 * not anything is reported, so that the answer does not tell either.
 */
export async function blindExposure(
  f: SyncedFile,
  workspaceRoot: string,
  hidden: HiddenRule,
  signal: AbortSignal,
): Promise<Blind | undefined> {
  const outside = await projectExposure(f, workspaceRoot, NOTHING_HIDDEN, signal);
  if (outside !== undefined) return { why: outside, outside: true };
  if (f.kept !== false || hidden === NOTHING_HIDDEN) return undefined;
  const why = await projectExposure(f, workspaceRoot, hidden, signal);
  return why === undefined ? undefined : { why, outside: false };
}

/**
 * For a server that does not list its project's files: a file the synced file `f` links to (its
 * document links: clangd's `#include` targets, as the server resolved them) that is outside the
 * workspace; `undefined` when there is none or the server gives no links.
 */
async function linkedOutside(f: SyncedFile, workspaceRoot: string, signal: AbortSignal): Promise<Exposure> {
  if (!f.client.documentLinks) return undefined;
  let links: unknown;
  try {
    links = await f.client.request<unknown>(
      'textDocument/documentLink',
      { textDocument: { uri: uriOf(f.abs) } },
      signal,
    );
  } catch {
    return undefined;
  }
  if (!Array.isArray(links)) return undefined;
  const check = new OutsideCheck(workspaceRoot);
  for (const link of links as unknown[]) {
    const target = (link as { target?: unknown } | null)?.target;
    const out = typeof target === 'string' ? check.outsideUri(target) : undefined;
    if (out !== undefined)
      return `the ${f.spec.id} server's project reads ${out} (${f.path} includes it), outside the workspace`;
  }
  return undefined;
}

const scans = new WeakMap<HiddenRule, Map<string, Promise<Exposure>>>();

/**
 * Whether the workspace holds a hidden file a server of `spec` could read (by its extensions,
 * any file when the server can read any). Walked once per call (per `hidden`).
 */
export function workspaceExposure(spec: ServerSpec, workspaceRoot: string, hidden: HiddenRule): Promise<Exposure> {
  if (hidden === NOTHING_HIDDEN) return Promise.resolve(undefined);
  let byServer = scans.get(hidden);
  if (byServer === undefined) {
    byServer = new Map();
    scans.set(hidden, byServer);
  }
  let scan = byServer.get(spec.id);
  if (scan === undefined) {
    scan = scanWorkspace(spec, workspaceRoot, hidden);
    byServer.set(spec.id, scan);
  }
  return scan;
}

async function scanWorkspace(spec: ServerSpec, workspaceRoot: string, hidden: HiddenRule): Promise<Exposure> {
  const realRoot = await realpath(workspaceRoot).catch(() => workspaceRoot);
  const reads = spec.reads === undefined ? undefined : new Set(spec.reads);
  const pending = [workspaceRoot];
  const visitedOutside = new Set<string>();
  let entries = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let list: Dirent[];
    try {
      list = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries += list.length;
    if (entries > SCAN_MAX_ENTRIES)
      return `the workspace holds more than ${SCAN_MAX_ENTRIES} entries to check against the read deny rules, so the ${spec.id} server's project may read a hidden file`;
    const files: string[] = [];
    for (const e of list) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git') pending.push(abs);
      } else if (e.isSymbolicLink()) {
        // A link to a folder inside the workspace is walked there; one leading out is walked here.
        const target = await realpath(abs).catch(() => undefined);
        if (target !== undefined && !isInside(realRoot, target) && !visitedOutside.has(target)) {
          const isDir = await readdir(target).then(
            () => true,
            () => false,
          );
          if (isDir) {
            visitedOutside.add(target);
            pending.push(abs);
            continue;
          }
        }
        if (reads === undefined || reads.has(extname(e.name).toLowerCase())) files.push(abs);
      } else if (reads === undefined || reads.has(extname(e.name).toLowerCase())) files.push(abs);
    }
    const rule = await firstHidden(files, hidden);
    if (rule !== undefined) return because(rule, spec.id);
  }
  return undefined;
}
