/**
 * The language servers the lsp pack knows: for each, the file extensions it serves, the root
 * markers that say a folder is one of its projects, how its binary resolves (an npm package this
 * package depends on, or a program on PATH that runs) and the project checker `diagnostics "*"` runs.
 */
import { existsSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { LspDiagnostic } from './protocol.js';
import type { ServerCommand } from './server-command.js';
import { PYRIGHT_LOAD_LOG } from './project-load.js';
import { pythonOutsidePaths } from './python-project.js';
import { rustProjectRefusal, rustServerEnv } from './rust-project.js';
import { tsConfigOutside } from './ts-project.js';
import { npmFile, pathServer } from './server-binaries.js';

export type { ServerCommand } from './server-command.js';

/**
 * rust-analyzer's settings: `lsp` is a read-tier tool (no side effects, offered in plan mode and
 * to read-only sub-agents), so the server must not run the project's code. By default it builds
 * and runs every `build.rs`, loads the crate's procedural macros and runs `cargo check` on each
 * save (which runs the build scripts again); all three are off.
 */
export const RUST_ANALYZER_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  cargo: { buildScripts: { enable: false } },
  procMacro: { enable: false },
  checkOnSave: false,
});

/** Sends one request to a running server. */
export type DiagnosticsRequester = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

/** One language server the pack can run. */
export interface ServerSpec {
  /** Server id, e.g. `typescript`. */
  readonly id: string;
  /** Extensions (with the dot) it serves, lower case. */
  readonly extensions: readonly string[];
  /** Files whose presence in a folder marks the project root. */
  readonly rootMarkers: readonly string[];
  /** The LSP `languageId` of a file. */
  languageId(path: string): string;
  /** The command, or a reason the binary does not resolve. */
  resolve(): ServerCommand | { readonly missing: string };
  /**
   * Why the server must not run for the project at `root` (a file in it could make the server
   * run a program the project names), checked before every use; undefined when it may.
   */
  refuses?(root: string, workspaceRoot: string): string | undefined;
  /**
   * Why the server's (or its checker's) answers for the project at `root` could quote files
   * outside the workspace that the files it lists, if it lists any, do not name: its
   * configuration, followed through the files it extends, points it there; or undefined.
   */
  outsidePaths?(root: string, workspaceRoot: string): string | undefined;
  /**
   * Whether the server names the version of an open document in each of its diagnostics: a
   * publication without one is then of the file on disk (the write already made it the new
   * text), never of the text the client sent.
   */
  readonly versionedDiagnostics?: boolean;
  /**
   * Asks the server for a synced file's diagnostics directly, when it has a way to (instead of
   * waiting for its published diagnostics to settle).
   */
  pull?(request: DiagnosticsRequester, uri: string, signal: AbortSignal): Promise<LspDiagnostic[]>;
  /** The project checker for `diagnostics "*"` (`root` is the project root). */
  checker?(root: string): ServerCommand | { readonly missing: string };
  /**
   * The files the checker's output lists as read (its program), split off the problems it
   * reports; `files` is `undefined` when the output lists none.
   */
  checkerFiles?(output: string): { readonly problems: string; readonly files?: readonly string[] };
  /**
   * Every file the server has read for the project of a synced file (`uri`), when it can tell;
   * absolute paths.
   */
  projectFiles?(request: DiagnosticsRequester, uri: string, signal: AbortSignal): Promise<readonly string[]>;
  /**
   * The extensions (lower case, with the dot) of every file the server may read for a project
   * besides what `projectFiles` tells; absent: any file (an `#include`, `include_str!` or
   * `//go:embed` reads files of any name).
   */
  readonly reads?: readonly string[];
  /**
   * The extensions (lower case, with the dot) of the files a server that does not list its
   * project's files finds by looking in folders (not by their being named), which a symbolic link
   * in the workspace can bring in from outside (see `project-links.ts`); absent: none.
   */
  readonly foundReads?: readonly string[];
}

const TS_EXT: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
};

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

const TS_SEVERITY: Record<string, number> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function fromTsDiagnostic(d: TsDiagnostic, syntactic: boolean): LspDiagnostic {
  return {
    ...(syntactic ? { syntactic } : {}),
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: TS_SEVERITY[d.category ?? 'error'] ?? 1,
    ...(d.code === undefined ? {} : { code: d.code }),
    source: 'typescript',
    message: d.text,
  };
}

/**
 * The go command's settings under gopls: the local toolchain only, and no module downloads (a
 * project's modules come from the module cache; `go mod download` fetches them).
 */
const GO_NO_DOWNLOADS: Readonly<Record<string, string>> = Object.freeze({ GOTOOLCHAIN: 'local', GOPROXY: 'off' });

/**
 * The options that keep `tsc -p` from writing any file, whatever the project's configuration (and
 * the files it extends) sets: the command line overrides it. Without them a model-written
 * tsconfig.json makes the checker write its build information (`incremental` or `composite` with
 * `tsBuildInfoFile`, even under `--noEmit`) or a trace (`generateTrace`) to any path, outside the
 * workspace or over `.git/config`. (`generateCpuProfile` is read from the command line only.)
 */
const TSC_WRITES_NOTHING: readonly string[] = Object.freeze([
  '--noEmit',
  '--incremental',
  'false',
  '--composite',
  'false',
  '--generateTrace',
  'null',
]);

/**
 * `tsc --listFiles` output split into its problems and the files it lists (each an absolute
 * path alone on its line, after the problems).
 */
function tscListedFiles(output: string): { problems: string; files?: string[] } {
  const problems: string[] = [];
  const files: string[] = [];
  for (const line of output.split('\n')) {
    const path = line.trimEnd();
    if (isAbsolute(path) && !/\(\d+,\d+\): /.test(path)) files.push(path);
    else problems.push(line);
  }
  return { problems: problems.join('\n'), ...(files.length === 0 ? {} : { files }) };
}

/** Options of {@link lspServers}. */
export interface LspServersOptions {
  /**
   * Where the npm-shipped servers (`typescript-language-server` with `typescript`, `pyright`)
   * resolve from: a file path or `file:` URL whose `node_modules` lookup finds them. Default: this
   * package.
   */
  readonly npmFrom?: string;
}

/** The servers the pack knows, in lookup order, with npm servers resolved per `options`. */
export function lspServers(options: LspServersOptions = {}): readonly ServerSpec[] {
  const from = options.npmFrom ?? import.meta.url;
  const npmBin = (pkg: string, file: string) => npmFile(from, pkg, file);
  return [
    {
      id: 'typescript',
      extensions: Object.keys(TS_EXT),
      rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      languageId: (path) => TS_EXT[extname(path).toLowerCase()] ?? 'typescript',
      resolve() {
        const cli = npmBin('typescript-language-server', 'lib/cli.mjs');
        const tsserver = npmBin('typescript', 'lib/tsserver.js');
        if (cli === undefined) return { missing: "the npm package 'typescript-language-server' does not resolve" };
        if (tsserver === undefined) return { missing: "the npm package 'typescript' does not resolve" };
        return {
          command: process.execPath,
          args: [cli, '--stdio'],
          initializationOptions: {
            // One tsserver, not a second syntax-only one beside it: an agent waits for semantic answers anyway.
            tsserver: { path: tsserver, useSyntaxServer: 'never' },
            disableAutomaticTypingAcquisition: true,
            preferences: { includeCompletionsForModuleExports: false },
          },
        };
      },
      async pull(request, uri, signal) {
        const out: LspDiagnostic[] = [];
        for (const command of ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync']) {
          const answer = (await request(
            'workspace/executeCommand',
            { command: 'typescript.tsserverRequest', arguments: [command, { file: uri }] },
            signal,
          )) as { success?: boolean; body?: TsDiagnostic[] } | null;
          if (answer?.success !== true || !Array.isArray(answer.body)) throw new Error(`${command} failed`);
          const syntactic = command === 'syntacticDiagnosticsSync';
          out.push(...answer.body.map((d) => fromTsDiagnostic(d, syntactic)));
        }
        return out;
      },
      async projectFiles(request, uri, signal) {
        const answer = (await request(
          'workspace/executeCommand',
          { command: 'typescript.tsserverRequest', arguments: ['projectInfo', { file: uri, needFileNameList: true }] },
          signal,
        )) as { success?: boolean; body?: { fileNames?: unknown } } | null;
        const files = answer?.success === true ? answer.body?.fileNames : undefined;
        if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) throw new Error('projectInfo failed');
        return files as string[];
      },
      reads: [...Object.keys(TS_EXT), '.json'],
      outsidePaths: tsConfigOutside,
      checker(root) {
        const tsc = npmBin('typescript', 'bin/tsc');
        if (tsc === undefined) return { missing: "the npm package 'typescript' does not resolve" };
        return {
          command: process.execPath,
          args: [tsc, ...TSC_WRITES_NOTHING, '--pretty', 'false', '--listFiles', '-p', root],
        };
      },
      checkerFiles: tscListedFiles,
    },
    {
      id: 'python',
      versionedDiagnostics: true,
      extensions: ['.py', '.pyi'],
      rootMarkers: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg', 'requirements.txt'],
      languageId: () => 'python',
      resolve() {
        const bin = npmBin('pyright', 'langserver.index.js');
        if (bin === undefined) return { missing: "the npm package 'pyright' does not resolve" };
        return { command: process.execPath, args: [bin, '--stdio'], loadLog: PYRIGHT_LOAD_LOG };
      },
      reads: ['.py', '.pyi'],
      foundReads: ['.py', '.pyi', '.pth'],
      outsidePaths: pythonOutsidePaths,
      checker(root) {
        const bin = npmBin('pyright', 'index.js');
        if (bin === undefined) return { missing: "the npm package 'pyright' does not resolve" };
        return { command: process.execPath, args: [bin, '-p', root] };
      },
    },
    {
      id: 'go',
      versionedDiagnostics: true,
      extensions: ['.go'],
      rootMarkers: ['go.mod', 'go.work'],
      languageId: () => 'go',
      // The go command gopls runs fetches nothing a model-written go.mod names: no toolchain
      // (which it would then run) and no module into the module cache outside the workspace.
      resolve: pathServer('gopls', [], ['version'], false, { env: GO_NO_DOWNLOADS }),
      // A package's Go, assembly and cgo files are every such file of its folder.
      foundReads: ['.go', '.s', '.c', '.h', '.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx'],
    },
    {
      id: 'rust',
      versionedDiagnostics: true,
      extensions: ['.rs'],
      rootMarkers: ['Cargo.toml'],
      languageId: () => 'rust',
      resolve() {
        const found = rustAnalyzer();
        return 'missing' in found ? found : { ...found, env: rustServerEnv() };
      },
      refuses: rustProjectRefusal,
      // `mod x;` reads `x.rs` or `x/mod.rs`.
      foundReads: ['.rs'],
    },
    {
      id: 'cpp',
      versionedDiagnostics: true,
      extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'],
      rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd', 'CMakeLists.txt'],
      languageId: (path) => (extname(path).toLowerCase() === '.c' ? 'c' : 'cpp'),
      resolve: pathServer('clangd', [], ['--version'], true),
    },
    {
      id: 'dart',
      extensions: ['.dart'],
      rootMarkers: ['pubspec.yaml'],
      languageId: () => 'dart',
      resolve: pathServer('dart', ['language-server', '--protocol=lsp'], ['--version']),
      // A `package:` import finds its file in the folder the package configuration names.
      foundReads: ['.dart'],
    },
  ];
}

const rustAnalyzer = pathServer('rust-analyzer', [], ['--version'], false, {
  initializationOptions: RUST_ANALYZER_SETTINGS,
  configuration: { 'rust-analyzer': RUST_ANALYZER_SETTINGS },
});

/** Every server the pack knows, in lookup order (npm servers resolved from this package). */
export const LSP_SERVERS: readonly ServerSpec[] = lspServers();

/** The server of `servers` serving files like `path`, if any. */
export function serverForPath(path: string, servers: readonly ServerSpec[] = LSP_SERVERS): ServerSpec | undefined {
  const ext = extname(path).toLowerCase();
  return servers.find((s) => s.extensions.includes(ext));
}

/** The server of `servers` with id `id`, if any. */
export function serverById(id: string, servers: readonly ServerSpec[] = LSP_SERVERS): ServerSpec | undefined {
  return servers.find((s) => s.id === id);
}

/**
 * The nearest folder from the file's folder up to `workspaceRoot` (inclusive) that holds one of
 * the spec's root markers, or undefined.
 */
export function findRoot(spec: ServerSpec, absFile: string, workspaceRoot: string): string | undefined {
  const top = resolve(workspaceRoot);
  let dir = dirname(resolve(absFile));
  for (;;) {
    if (spec.rootMarkers.some((m) => existsSync(join(dir, m)))) return dir;
    if (dir === top) return undefined;
    const rel = relative(top, dir);
    if (rel === '' || rel.startsWith('..') || rel.split(sep)[0] === '..') return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
