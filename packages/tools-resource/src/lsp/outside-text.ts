/**
 * Whether a server's answer may carry text of a file outside the workspace, judged on the answer
 * itself, for every server (whether or not it lists its project's files): a diagnostic with
 * related information located outside, a text naming a path that leads outside (also through a
 * symbolic link, or spelled with `../`), clangd's "In included file" diagnostic about a file not
 * shown to be inside, a hover on a symbol defined outside. `read` refuses such a file, so its
 * text is withheld (fail closed). Files of installed packages and of the system's toolchains
 * (`node_modules`, `/usr/include`, `/usr/lib`, Go's and Rust's module caches, …) are not counted:
 * every server reads them, and they hold no project's secrets.
 */
import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { uriOf } from './client.js';
import { toLocations } from './positions.js';
import type { LspDiagnostic, LspPosition } from './protocol.js';
import type { SyncedFile } from './session-files.js';
import { withholdMessages } from './withheld.js';
import { inPackage, isInside, realOrSelf } from './workspace-paths.js';

const SYSTEM_ROOTS = [
  '/usr/include',
  '/usr/local/include',
  '/usr/lib',
  '/usr/lib64',
  '/usr/local/lib',
  '/usr/local/go',
  '/usr/share',
];

/** Where installed toolchains and package caches are: the system's, and those under the home folder or named by the environment. */
function installedRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = homedir();
  const named = [
    env.GOROOT,
    env.GOMODCACHE,
    env.CARGO_HOME && join(env.CARGO_HOME, 'registry'),
    env.RUSTUP_HOME,
    env.PUB_CACHE,
    env.DART_SDK,
    env.FLUTTER_ROOT,
  ];
  return [
    ...SYSTEM_ROOTS,
    join(home, '.rustup', 'toolchains'),
    join(home, '.cargo', 'registry'),
    join(home, '.cargo', 'git'),
    join(home, 'go', 'pkg', 'mod'),
    join(home, '.pub-cache'),
    ...named.filter((p): p is string => typeof p === 'string' && isAbsolute(p) && p !== '/'),
  ].map((p) => realOrSelf(p));
}

// A path in a message: absolute (or a file URI), or relative starting with `./` or `../`, or `~/`.
// It ends at white space, quotes, brackets and `:` (clangd writes `path:line:column`).
const PATHS = /(?<![\w.~/-])(?:file:\/\/)?((?:~|\.{1,2})?\/[^\s'"`<>()[\]{},;:]+)/g;

/** Tells files outside the workspace from files inside it or installed. */
export class OutsideCheck {
  readonly #root: string;
  readonly #realRoot: string;
  readonly #installed: string[];

  constructor(workspaceRoot: string) {
    this.#root = workspaceRoot;
    this.#realRoot = realOrSelf(workspaceRoot);
    this.#installed = installedRoots();
  }

  /** The real path of `abs` when it is outside the workspace (links resolved) and not installed, else `undefined`. */
  outside(abs: string): string | undefined {
    const real = realOrSelf(resolve(abs));
    if (isInside(this.#root, real) || isInside(this.#realRoot, real) || inPackage(real)) return undefined;
    if (this.#installed.some((r) => isInside(r, real))) return undefined;
    return real;
  }

  /** The real path of a `file:` URI outside (see {@link outside}); any other URI is not a file. */
  outsideUri(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return this.outside(fileURLToPath(uri));
    } catch {
      return undefined;
    }
  }

  /**
   * The first existing file or folder named in `text` that is outside (a path that names nothing
   * cannot have been read); relative paths start in `from`.
   */
  inText(text: string, from: string): string | undefined {
    for (const m of text.matchAll(PATHS)) {
      let spelled = m[1]!;
      try {
        if (m[0].startsWith('file:')) spelled = decodeURIComponent(spelled);
      } catch {
        // kept as written
      }
      const abs = spelled.startsWith('~/') ? join(homedir(), spelled.slice(2)) : resolve(from, spelled);
      if (!exists(abs)) continue;
      const out = this.outside(abs);
      if (out !== undefined) return out;
    }
    return undefined;
  }

  /** Why the message of diagnostic `d` of the file `fileAbs` may quote a file outside, or `undefined`. */
  diagnostic(d: LspDiagnostic, fileAbs: string): string | undefined {
    const from = dirname(fileAbs);
    const related = (d as { relatedInformation?: unknown }).relatedInformation;
    for (const r of Array.isArray(related) ? (related as unknown[]) : []) {
      const info = r as { location?: { uri?: unknown }; message?: unknown } | null;
      const uri = info?.location?.uri;
      const out =
        (typeof uri === 'string' ? this.outsideUri(uri) : undefined) ??
        (typeof info?.message === 'string' ? this.inText(info.message, from) : undefined);
      if (out !== undefined) return `a diagnostic is about ${out}, outside the workspace`;
    }
    const named = this.inText(d.message, from);
    if (named !== undefined) return `a diagnostic names ${named}, outside the workspace`;
    if (/^In included file\b/.test(d.message) && !this.#namesInside(d.message, from))
      return 'a diagnostic is about an included file not shown to be inside the workspace or installed';
    return undefined;
  }

  /** Whether `text` names an existing file inside the workspace or installed (see {@link outside}). */
  #namesInside(text: string, from: string): boolean {
    for (const m of text.matchAll(PATHS)) {
      const abs = resolve(from, m[1]!);
      if (exists(abs) && this.outside(abs) === undefined) return true;
    }
    return false;
  }
}

function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/**
 * `list` (the diagnostics of the file `fileAbs`) with the message of each that may quote a file
 * outside the workspace withheld, and why (the first reason), or the list as it is.
 */
export function withholdOutside(
  list: readonly LspDiagnostic[],
  fileAbs: string,
  check: OutsideCheck,
): { readonly list: LspDiagnostic[]; readonly why?: string } {
  let why: string | undefined;
  const out = list.map((d) => {
    const reason = check.diagnostic(d, fileAbs);
    if (reason === undefined) return d;
    why ??= reason;
    return withholdMessages([{ ...d, syntactic: false }])[0]!;
  });
  return why === undefined ? { list: out } : { list: out, why };
}

/**
 * The diagnostics of the file `fileAbs` as shown: every message withheld when the file's project
 * may quote a file the call may not read (`exposure`, see `exposure.ts`), else those that may
 * quote a file outside the workspace (see {@link withholdOutside}); `withheld` tells why.
 */
export function shownDiagnostics(
  list: readonly LspDiagnostic[],
  fileAbs: string,
  workspaceRoot: string,
  exposure: string | undefined,
): { readonly list: LspDiagnostic[]; readonly withheld?: string } {
  if (exposure !== undefined) return { list: withholdMessages(list), withheld: exposure };
  const { list: shown, why } = withholdOutside(list, fileAbs, new OutsideCheck(workspaceRoot));
  return why === undefined ? { list: shown } : { list: shown, withheld: why };
}

/**
 * Why a hover at `position` of the synced file `f` may quote a file outside the workspace: the
 * symbol there is defined outside (the server's `definition` answer), or `undefined`. A server
 * that cannot answer counts as defined inside: its hover text is still checked for paths.
 */
export async function definedOutside(
  f: SyncedFile,
  position: LspPosition,
  check: OutsideCheck,
  signal: AbortSignal,
): Promise<string | undefined> {
  let answer: unknown;
  try {
    answer = await f.client.request<unknown>(
      'textDocument/definition',
      { textDocument: { uri: uriOf(f.abs) }, position },
      signal,
    );
  } catch {
    return undefined;
  }
  for (const l of toLocations(answer)) {
    const out = check.outsideUri(l.uri);
    if (out !== undefined) return `the symbol is defined in ${out}, outside the workspace`;
  }
  return undefined;
}
