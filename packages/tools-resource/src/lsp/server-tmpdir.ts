/**
 * How a language server is spawned, with a temporary folder of its own. Some servers make
 * folders in the temporary folder and leave them when they stop (typescript-language-server makes one per start for tsserver's
 * cancellation pipes, and never removes it), so each server runs with `TMPDIR` (and `TMP`,
 * `TEMP`) set to a folder made for it at start, which is removed, with whatever the server left
 * in it, once the server has stopped, crashed, failed to start or been killed at exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolProcessEnv } from '@a3s-code/core';
import type { ServerCommand } from './server-command.js';

/** A server's temporary folder: the variables that point the server at it, and its removal. */
export interface ServerTmpDir {
  /** The folder's path. */
  readonly path: string;
  /** `TMPDIR`, `TMP` and `TEMP`, each the folder. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the folder and what is in it (once it is gone, nothing; a failure is ignored). */
  remove(): void;
}

/** Makes a folder in this process's temporary folder for one server. */
export function serverTmpDir(): ServerTmpDir {
  const path = mkdtempSync(join(tmpdir(), 'a3s-lsp-tmp-'));
  return {
    path,
    env: Object.freeze({ TMPDIR: path, TMP: path, TEMP: path }),
    remove() {
      try {
        rmSync(path, { recursive: true, force: true, maxRetries: 2 });
      } catch {
        // A folder that cannot be removed is left; the server has stopped either way.
      }
    },
  };
}

/**
 * Spawns the server of `cmd` in `root` (the tools' environment, `cmd.env`, and its own temporary
 * folder), its stdin and stdout piped. The folder is removed here when the server cannot be
 * started; the caller removes it when the server exits.
 */
export function spawnServer(cmd: ServerCommand, root: string): { child: ChildProcess; tmp: ServerTmpDir } {
  const tmp = serverTmpDir();
  let child: ChildProcess;
  try {
    child = spawn(cmd.command, [...cmd.args], {
      cwd: root,
      env: { ...toolProcessEnv(), ...cmd.env, ...tmp.env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch (e) {
    tmp.remove();
    throw e;
  }
  // A server that could not be started (no such program) never exits.
  child.once('error', () => {
    if (child.pid === undefined) tmp.remove();
  });
  return { child, tmp };
}
