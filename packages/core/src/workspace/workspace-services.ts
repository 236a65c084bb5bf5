/**
 * The `WorkspaceServices` interface: the only way a tool touches files, search, processes and
 * Git. Implementations (local, in-memory, remote) live in `@a3s-code/tools-workspace`; they also
 * enforce path checks (no escape through `..`, absolute paths or symlinks). Paths are relative to
 * `root` with `/` separators. Every method takes an optional `AbortSignal`.
 */
import type { WorkspaceServiceCapability } from './capabilities.js';

/** Options every workspace call accepts. */
export interface WorkspaceCallOptions {
  /** Aborts the operation; implementations reject with a `CANCELLED` error. */
  readonly signal?: AbortSignal;
  /**
   * Called by `readFile`, `readChunks`, `list`, `writeFile` and `remove` of a backend with links
   * when the entry it actually reached may be another than the path names: a symbolic link was
   * followed (perhaps one swapped in since the path was judged), or the file opened has more than
   * one name (a hard link, perhaps made since). It gets that entry's real path, relative to the
   * workspace root, and for a file with several names its identity, before a byte is read, listed
   * or written. When it throws or rejects, the call fails with that error and nothing is read or
   * written. The kernel's path rules use it to judge the file a call reaches, not only the path it named.
   */
  readonly reached?: (realPath: string, file?: WorkspaceFileIdentity) => void | Promise<void>;
}

/** Which file an open descriptor holds: its device and inode, and how many names it has. */
export interface WorkspaceFileIdentity {
  readonly dev: number;
  readonly ino: number;
  /** Its number of hard links (names). */
  readonly nlink: number;
}

/** Options of `writeFile`. */
export interface WorkspaceWriteOptions extends WorkspaceCallOptions {
  /**
   * `true` sets the file's executable bits (for whoever may read it), `false` clears them;
   * absent, an existing file keeps its mode and a new one gets the default.
   */
  readonly executable?: boolean;
}

/** File or directory metadata. */
export interface WorkspaceStat {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Size in bytes. */
  readonly size: number;
  /** Last modification, epoch milliseconds. */
  readonly mtimeMs: number;
  /**
   * Last change of the content or the metadata (POSIX `ctime`), epoch milliseconds. Unlike
   * `mtimeMs` no process can set it back, so an edit whose modification time was restored still
   * shows. Absent where the backend has none.
   */
  readonly changeMs?: number;
  /** For a file, whether an executable bit is set (absent where the backend has no modes). */
  readonly executable?: boolean;
  /** For a symbolic link looked at itself (`statMany`), the path it holds (absent where the backend cannot read it). */
  readonly linkTarget?: string;
}

/** One directory entry. */
export interface WorkspaceDirEntry {
  /** Entry name (no path). */
  readonly name: string;
  readonly kind: WorkspaceStat['kind'];
}

/** File operations, split by capability: `fs.read`, `fs.write`, `fs.list`. */
export interface WorkspaceFileSystem {
  /** `fs.read`: the file's bytes. Rejects when missing or outside the workspace. */
  readFile(path: string, options?: WorkspaceCallOptions): Promise<Uint8Array>;
  /**
   * `fs.read`, optional: the file's bytes in order, a bounded chunk at a time, so a large file can
   * be scanned without holding it whole. Refused and failing as `readFile` is (the first step
   * rejects). A chunk is valid until the next one is asked for (a backend may read each into the
   * same buffer): a caller that keeps one copies it. Stopping early closes the file. Where a
   * backend lacks it, callers read the file with `readFile`.
   */
  readChunks?(path: string, options?: WorkspaceCallOptions): AsyncIterable<Uint8Array>;
  /** `fs.read`: metadata, or `undefined` when the path does not exist. */
  stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined>;
  /**
   * `fs.read`, optional: the metadata of many paths at once, in order (`undefined` for one that is
   * missing or outside the workspace), for noting which files a command changed. No symbolic link
   * is followed at the end of a path (a link reports as itself). Where a backend lacks it, callers
   * use `stat` path by path.
   */
  statMany?(paths: readonly string[], options?: WorkspaceCallOptions): Promise<(WorkspaceStat | undefined)[]>;
  /** `fs.write`: creates or replaces a file (parents created), atomically where the backend can. */
  writeFile(path: string, data: string | Uint8Array, options?: WorkspaceWriteOptions): Promise<void>;
  /** `fs.write`: removes a file or an empty directory. */
  remove(path: string, options?: WorkspaceCallOptions): Promise<void>;
  /** `fs.list`: direct children of a directory, sorted by name. */
  list(path: string, options?: WorkspaceCallOptions): Promise<readonly WorkspaceDirEntry[]>;
}

/**
 * How a search scanned, for backends that scan under a cap (an object store lists and reads its
 * objects one request at a time, up to a maximum number per search).
 */
export interface WorkspaceScanReport {
  /** The backend, e.g. `s3`. */
  readonly backend: string;
  /** Objects (files) the scan visited. */
  readonly scanned: number;
  /** The most objects one search visits. */
  readonly limit: number;
  /** True when the cap stopped the scan: totals and paths may be incomplete. */
  readonly truncated: boolean;
}

/** A content search request (`search`). */
export interface WorkspaceGrepRequest extends WorkspaceCallOptions {
  /** Regular expression (or fixed string with `fixedStrings`). */
  readonly pattern: string;
  /** Directory or file to search, default the root. */
  readonly path?: string;
  /** Only files matching this glob. */
  readonly glob?: string;
  readonly caseInsensitive?: boolean;
  readonly fixedStrings?: boolean;
  /** `false` when the caller needs only paths or counts: backends must not build line text. */
  readonly withText?: boolean;
  /** Called once the scan ends by backends that scan under a cap, with how it went. */
  readonly onScan?: (report: WorkspaceScanReport) => void;
}

/** One matching line. Matches arrive grouped by file, files in lexical order. */
export interface WorkspaceGrepMatch {
  readonly path: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line text, absent when `withText: false`. */
  readonly text?: string;
}

/** A path search request (`search`). */
export interface WorkspaceGlobRequest extends WorkspaceCallOptions {
  readonly pattern: string;
  /** Directory to search, default the root. */
  readonly path?: string;
  /** Called once the scan ends by backends that scan under a cap, with how it went. */
  readonly onScan?: (report: WorkspaceScanReport) => void;
}

/** Content and path search (`search`). Results stream so callers can stop early. */
export interface WorkspaceSearch {
  grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch>;
  /** Matching file paths in the backend's relevance or recency order. */
  glob(request: WorkspaceGlobRequest): AsyncIterable<string>;
}

/** A captured stream: head and tail kept under a byte cap, with the exact total. */
export interface CapturedStream {
  readonly head: string;
  readonly tail: string;
  /** Exact number of bytes the process wrote. */
  readonly totalBytes: number;
  /** `true` when bytes between head and tail were dropped. */
  readonly truncated: boolean;
}

/** A process request (`exec`). */
export interface WorkspaceExecRequest extends WorkspaceCallOptions {
  /** Shell command line (run with the backend's shell). */
  readonly command: string;
  /** Working directory relative to the root. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Deadline covering output draining and exit; on expiry every process of the command is killed. */
  readonly timeoutMs?: number;
  /** Byte cap per stream. */
  readonly maxOutputBytes?: number;
  readonly stdin?: string;
  /**
   * Files the command must not reach (absolute paths on the machine that runs it), set by the
   * kernel when path deny rules cover existing files: `unreadable` ones are neither read nor
   * written (a folder shows empty), `unwritable` ones are read but not changed, created in, moved
   * or removed. A backend given this field must keep them from the command and every process it
   * starts, or refuse to run it; it must never run the command without them held.
   */
  readonly hide?: ExecHiding;
  /**
   * Receives the command's output as it arrives (UTF-8 text, chunked as read), for live display.
   * It does not change what the result captures. Called only while the command runs; must not
   * throw. Returning `false` ends the live view: no more output is decoded or passed on.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing is allowed.
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => boolean | void;
}

/** Files a command must not reach: see {@link WorkspaceExecRequest.hide}. */
export interface ExecHiding {
  /** Files and folders the command may neither read nor write. */
  readonly unreadable: readonly string[];
  /** Files and folders the command may read but not change. */
  readonly unwritable: readonly string[];
  /**
   * The folders inside the workspace on the way to the paths above, shallowest first: the command
   * may change what is in them but not move or remove them, which would carry a kept file to a
   * path no rule names.
   */
  readonly folders?: readonly string[];
}

/** A process a command started that was still running when the command returned. */
export interface WorkspaceBackgroundProcess {
  readonly pid: number;
  /** Its command line, possibly shortened. */
  readonly command: string;
  /**
   * Its pid as later commands see it, when commands run in a process namespace of their own
   * (`pid` is the host's); absent when they see the host's pids.
   */
  readonly shellPid?: number;
}

/** A finished process. */
export interface WorkspaceExecResult {
  readonly exitCode: number | null;
  /** Signal that ended the process, if any. */
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly durationMs: number;
  /**
   * Processes the command left running after a normal exit (`server &`), when the backend tracks
   * them; they keep running until {@link WorkspaceExec.close}. Absent or empty: none are known.
   */
  readonly backgroundProcesses?: readonly WorkspaceBackgroundProcess[];
  /**
   * Set by the kernel when the command created files or folders where the path rules deny
   * writing (they could not be hidden from it: they did not exist when it started). They were
   * removed once it ended; `problem` says what could not be searched or removed.
   */
  readonly deniedWrites?: DeniedWrites;
  /**
   * Set by the kernel when it kept more from the command than the files the rules name, one line
   * each, saying what and why (`.git`, when git holds a file the read rules cover). A tool shows
   * them with the command's output.
   */
  readonly heldNotes?: readonly string[];
  /**
   * Set by a backend that holds each command's tree to a ceiling on processes (and threads) when
   * this command reached it: the ceiling, and forks past it failed.
   */
  readonly processLimit?: number;
}

/** What a command created against the write rules, removed after it (see {@link WorkspaceExecResult.deniedWrites}). */
export interface DeniedWrites {
  /** The paths removed: workspace-relative where under the root, else absolute. */
  readonly removed: readonly string[];
  /**
   * Git configuration files a command allowed unasked added settings to that would run a program
   * later (`.git/config (core.fsmonitor)`): those settings were taken out again.
   */
  readonly restored?: readonly string[];
  readonly problem?: string;
}

/** A program and its arguments, as a process is started (no shell). */
export interface ProcessCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** A long-lived process's command line, held to the path rules of the call that starts it. */
export interface HeldProcessCommand extends ProcessCommand {
  /** The files kept from it (see {@link ExecHiding}), empty when none: it then runs as given. */
  readonly hidden: readonly string[];
  /**
   * Which files `hidden` named when it was held: each path with the device, inode and change time
   * found there.
   * A process lives on with those files kept from it; once a file at one of the paths was replaced
   * (renamed over, removed and written again), the identity a new hold gives differs, and a tool
   * that keeps the process between calls starts it again. Absent from holds that do not give it.
   */
  readonly identity?: string;
  /**
   * Present when write rules hold the process: removes what it (and what it started) created
   * where they forbid since it was held, and names it, or `undefined` when nothing was. A tool
   * whose process runs on between its calls (a debuggee) calls it at the end of each later call
   * and when the process ends, so nothing it makes meanwhile stays.
   */
  readonly settleWrites?: () => Promise<DeniedWrites | undefined>;
  /**
   * Present when write rules hold the process: tells the runtime the pid of the process started
   * from this command, so that what it makes where they forbid is also looked for about every
   * second while it lives, not only at the tool's next call.
   */
  readonly started?: (pid: number) => void;
}

/** Process execution (`exec`). */
export interface WorkspaceExec {
  run(request: WorkspaceExecRequest): Promise<WorkspaceExecResult>;
  /**
   * The command line that starts `process` (a long-lived one a tool keeps, such as a kernel) with
   * the files of `hide` out of its reach, as {@link WorkspaceExecRequest.hide} does for a command;
   * its exit code or signal is the process's own. `undefined` where this backend cannot. With
   * nothing to hide it is asked too (the backend may keep the process apart from the host anyway,
   * or return it as it is); `undefined` then starts the process as it is.
   */
  hiding?(process: ProcessCommand, hide: ExecHiding): ProcessCommand | undefined;
  /**
   * Readies what {@link hiding} needs to keep a process apart from the host with nothing to hide
   * (the namespaces the workspace's commands share), so that the process it then returns joins
   * them. Asked, where present, before each such `hiding`.
   */
  prepare?(): Promise<void>;
  /**
   * The host's pid of the process the workspace's commands know as `pid`, where they run in a
   * process namespace of their own (see {@link WorkspaceBackgroundProcess.shellPid}); `undefined`
   * when none of their processes has it. Where commands see the host's pids, `pid` itself. A tool
   * that acts on a process the model names (a debugger's attach) asks it first.
   */
  hostPid?(pid: number): number | undefined;
  /**
   * Ends every process a command started that is still running (see
   * {@link WorkspaceExecResult.backgroundProcesses}). A session calls it when it closes; the
   * service stays usable afterwards. Optional: backends without background processes omit it.
   */
  close?(): Promise<void>;
}

/** Git (`git`): runs `git <args>` in the workspace without a shell. */
export interface WorkspaceGit {
  run(
    args: readonly string[],
    options?: WorkspaceCallOptions & { readonly timeoutMs?: number },
  ): Promise<WorkspaceExecResult>;
}

/**
 * A workspace. Each service is present exactly when its capability is declared: `fs` when any
 * `fs.*` is, `search` for `search`, `exec` for `exec`, `git` for `git`. Calling an `fs` method
 * whose capability is not declared rejects with `CAPABILITY_UNAVAILABLE`.
 */
export interface WorkspaceServices {
  /** Absolute root path or URI of the workspace (display and identity only). */
  readonly root: string;
  /** The capabilities this backend serves. */
  readonly capabilities: ReadonlySet<WorkspaceServiceCapability>;
  readonly fs?: WorkspaceFileSystem;
  readonly search?: WorkspaceSearch;
  readonly exec?: WorkspaceExec;
  readonly git?: WorkspaceGit;
  /**
   * The path deny rule for reads (`Read(secret/**)`) that hides the workspace file `path` (any
   * spelling) from this call, or `undefined` when the call may read it. Present only on the
   * workspace of a call held to such rules: a tool that learns of files other than through `fs`
   * and `search` (a language server's answer, git's output) asks it before showing them.
   */
  readonly readDenied?: (path: string) => Promise<string | undefined>;
  /**
   * Holds a long-lived process the call starts itself (not through `exec.run`) to the path rules
   * that hold the call's commands: the command line to start instead, with the files kept from
   * it. Present on the workspace of a call held to such rules; rejects with
   * `PERMISSION_DENIED` when the files cannot be kept from the process (it must then not start).
   * Present too, with no files kept, where the workspace's `exec` can keep a process apart from the
   * host (see {@link WorkspaceExec.hiding}).
   */
  readonly holdProcess?: (process: ProcessCommand) => Promise<HeldProcessCommand>;
  /**
   * Present with {@link holdProcess}: what the processes this call held created, since it held
   * them, where the write rules deny writing (files and folders that did not exist then, so could
   * not be kept from them) is removed, and named; `undefined` when nothing was. A tool calls it
   * once the call's work in those processes is done (a kernel's cell ran), and reports it.
   */
  readonly settleHeldWrites?: () => Promise<DeniedWrites | undefined>;
  /**
   * The path deny rule for writes (`Write(secret/**)`, `Edit(…)`, `Patch(…)`) that stops this call
   * from writing or removing the workspace file `path` (any spelling), or `undefined` when it may.
   * Present only on the workspace of a call held to such rules: a tool that changes files other
   * than through `fs` (git's checkout, stash and worktree) asks it for every file it would change
   * and refuses before changing any.
   */
  readonly writeDenied?: (path: string) => Promise<string | undefined>;
}

/** A workspace that serves nothing: for sessions without a workspace and for tests. */
export function emptyWorkspace(root = '(none)'): WorkspaceServices {
  return Object.freeze({ root, capabilities: new Set<WorkspaceServiceCapability>() });
}
