/**
 * The debug adapters `debug` can start, and the two checks that decide whether one may start in
 * a folder: one of its root markers exists there, and its binary resolves. Each unavailable
 * adapter carries the reason.
 */
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { executable, onPath, onPathMatching } from '../shared/path-lookup.js';
import { debugpyPython } from './debugpy-python.js';

/** The adapter ids. */
export type AdapterId = 'debugpy' | 'lldb' | 'delve' | 'dart';

/** How the client reaches a started adapter. */
export type AdapterTransport = 'stdio' | 'tcp';

/** A resolved adapter command. */
export interface AdapterCommand {
  readonly id: AdapterId;
  readonly command: string;
  readonly args: readonly string[];
  readonly transport: AdapterTransport;
  /** The DAP `launch` arguments for a program. */
  launchArgs(program: string, args: readonly string[], cwd: string): Record<string, unknown>;
  /**
   * The DAP `attach` arguments for a running debuggee: by `port` (it listens there) or by `pid`
   * (the adapter attaches to the process), or the reason the adapter cannot attach that way.
   */
  attachArgs(target: AttachTarget, cwd: string): Record<string, unknown> | string;
  /**
   * True when `attach` to `target` connects to the debuggee's own DAP server at its port instead
   * of starting the adapter (debugpy's `--listen` runs an adapter inside the debuggee's tree).
   */
  attachConnects?(target: AttachTarget): boolean;
  /**
   * The DAP context `evaluate` sends (default `repl`). lldb-dap runs lldb commands (`platform
   * shell`, `script`, `process attach`) from its `repl` context, so it gets `watch`: expressions only.
   */
  readonly evaluateContext?: 'repl' | 'watch';
}

/** What `attach` connects to: a port the debuggee listens on, or a process id. */
export type AttachTarget =
  | { readonly port: number; readonly pid?: never }
  | { readonly pid: number; readonly port?: never };

/** One adapter's availability in a folder. */
export interface AdapterAvailability {
  readonly id: AdapterId;
  readonly markers: readonly string[];
  readonly available: boolean;
  /** The command when available. */
  readonly command?: string;
  /** Why it cannot start here, when unavailable. */
  readonly reason?: string;
}

/** Interpreters tried for debugpy: the project's `.venv` or `venv` first, then the system ones. */
export function debugpyCandidates(cwd: string): string[] {
  const local = ['.venv', 'venv'].flatMap((v) => ['python3', 'python'].map((p) => join(cwd, v, 'bin', p)));
  const system = ['/usr/bin/python3', onPath('python3'), onPath('python')].filter((p): p is string => p !== undefined);
  return [...local.filter(executable), ...system];
}

interface AdapterSpec {
  readonly id: AdapterId;
  readonly markers: readonly string[];
  readonly needs: string;
  resolve(cwd: string): AdapterCommand | undefined;
}

const plainLaunch = (program: string, args: readonly string[], cwd: string) => ({ program, args: [...args], cwd });

const SPECS: readonly AdapterSpec[] = [
  {
    id: 'dart',
    markers: ['pubspec.yaml'],
    needs: '`dart` on PATH',
    resolve: () => {
      const dart = onPath('dart');
      return dart === undefined
        ? undefined
        : {
            id: 'dart',
            command: dart,
            args: ['debug_adapter'],
            transport: 'stdio',
            launchArgs: plainLaunch,
            attachArgs: (t, cwd) =>
              t.port !== undefined
                ? { vmServiceUri: `http://127.0.0.1:${t.port}/`, cwd }
                : 'the dart adapter attaches to a VM service port, not a process id: run the program with --enable-vm-service=PORT and attach {port}',
          };
    },
  },
  {
    id: 'debugpy',
    markers: ['pyproject.toml', 'setup.py', 'requirements.txt'],
    needs:
      'a Python that imports debugpy: a virtual environment in .venv or venv with debugpy in its site-packages (or in those of its base Python), /usr/bin/python3, or python3 on PATH',
    resolve: (cwd) => {
      const py = debugpyPython(debugpyCandidates(cwd), cwd);
      return py === undefined
        ? undefined
        : {
            id: 'debugpy',
            command: py,
            args: ['-m', 'debugpy.adapter'],
            transport: 'stdio',
            launchArgs: (program, args, dir) => ({
              type: 'python',
              program,
              args: [...args],
              cwd: dir,
              python: [py],
              console: 'internalConsole',
              justMyCode: true,
            }),
            attachConnects: (t) => t.port !== undefined,
            attachArgs: (t, dir) =>
              t.port !== undefined
                ? { type: 'python', connect: { host: '127.0.0.1', port: t.port }, cwd: dir, justMyCode: true }
                : 'debugpy attaches to a port: start the program with `python -m debugpy --listen PORT` and attach {port}',
          };
    },
  },
  {
    id: 'lldb',
    markers: ['Cargo.toml', 'CMakeLists.txt'],
    needs: '`lldb-dap`, `lldb-dap-NN` or `lldb-vscode-NN` on PATH',
    resolve: () => {
      const bin = onPathMatching(/^lldb-dap(-\d+)?$/)[0] ?? onPathMatching(/^lldb-vscode(-\d+)?$/)[0];
      return bin === undefined
        ? undefined
        : {
            id: 'lldb',
            command: bin,
            args: [],
            transport: 'stdio',
            evaluateContext: 'watch',
            launchArgs: plainLaunch,
            attachArgs: (t) =>
              t.pid !== undefined ? { pid: t.pid } : { 'gdb-remote-port': t.port, 'gdb-remote-hostname': '127.0.0.1' },
          };
    },
  },
  {
    id: 'delve',
    markers: ['go.mod'],
    needs: '`dlv` on PATH',
    resolve: () => {
      const dlv = onPath('dlv');
      return dlv === undefined
        ? undefined
        : {
            id: 'delve',
            command: dlv,
            args: ['dap', '--listen', '127.0.0.1:0'],
            transport: 'tcp',
            // The built program goes to a folder of its own outside the workspace: never a stray
            // __debug_bin in the user's tree when the adapter dies before it can delete it.
            launchArgs: (program, args, cwd) => ({
              mode: 'debug',
              program,
              args: [...args],
              cwd,
              output: join(mkdtempSync(join(tmpdir(), 'a3s-dlv-')), '__debug_bin'),
            }),
            attachArgs: (t, cwd) =>
              t.pid !== undefined
                ? { mode: 'local', processId: t.pid, cwd }
                : 'delve attaches to a running Go process by its id here: attach {pid}',
          };
    },
  },
];

/** The adapter ids, in the order `adapters` lists them. */
export const ADAPTER_IDS: readonly AdapterId[] = SPECS.map((s) => s.id);

function check(spec: AdapterSpec, cwd: string): { availability: AdapterAvailability; command?: AdapterCommand } {
  const marker = spec.markers.find((m) => existsSync(join(cwd, m)));
  if (marker === undefined)
    return {
      availability: {
        id: spec.id,
        markers: spec.markers,
        available: false,
        reason: `no root marker in ${cwd} (looked for ${spec.markers.join(', ')})`,
      },
    };
  const command = spec.resolve(cwd);
  if (command === undefined)
    return {
      availability: {
        id: spec.id,
        markers: spec.markers,
        available: false,
        reason: `binary not found: needs ${spec.needs}`,
      },
    };
  return { availability: { id: spec.id, markers: spec.markers, available: true, command: command.command }, command };
}

/** Every adapter's availability in `cwd`. */
export function listAdapters(cwd: string): AdapterAvailability[] {
  return SPECS.map((s) => check(s, cwd).availability);
}

/** The adapter a program needs by its kind: `.py` debugpy, `.go` or a Go folder delve, `.dart` dart, anything else lldb. */
export function adapterForProgram(program: string): AdapterId {
  const ext = extname(program).toLowerCase();
  if (ext === '.py') return 'debugpy';
  if (ext === '.go') return 'delve';
  if (ext === '.dart') return 'dart';
  try {
    if (statSync(program).isDirectory() && readdirSync(program).some((n) => n.endsWith('.go'))) return 'delve';
  } catch {
    // an unknown path is judged by its extension only
  }
  return 'lldb';
}

/** Resolves adapter `id` in `cwd`, or the reason it cannot start there. */
export function resolveAdapter(id: AdapterId, cwd: string): AdapterCommand | string {
  const spec = SPECS.find((s) => s.id === id)!;
  const r = check(spec, cwd);
  return r.command ?? r.availability.reason!;
}
