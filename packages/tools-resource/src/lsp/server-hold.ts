/**
 * Language servers held to the read deny rules of the call that uses them. A server reads the
 * whole project from disk, so a file the rules hide would otherwise reach it, and through it the
 * model: not only as text (withheld, see `exposure.ts`) but as whether a diagnostic appears after
 * a write, which a model can steer (`secrets.Key >= "guess"` in a duplicate map key) to learn a
 * hidden constant bit by bit. So a server starts through the call's `holdProcess`, which keeps
 * the files the rules hide out of its reach, as a kernel's are (see `eval-resource.ts`); a server
 * started under other files to hide is restarted for the call. Where the workspace cannot keep
 * files from a process, the server runs as it is and the call learns that it is not held
 * (`kept: false`): its diagnostics then show nothing the hidden files could decide.
 */
import { A3sError, type HeldProcessCommand, type ProcessCommand, type ToolContext } from '@a3s-code/core';
import type { ServerCommand } from './server-command.js';

/** What a call holds the servers it uses to. */
export interface CallHold {
  /** The call's `WorkspaceServices.holdProcess`, where its workspace has one. */
  readonly holdProcess?: (process: ProcessCommand) => Promise<HeldProcessCommand>;
  /** Whether read rules hold the call (its workspace has `readDenied`). */
  readonly readRules: boolean;
}

/** A call held to nothing (a call from the host's side, a test). */
export const NO_HOLD: CallHold = Object.freeze({ readRules: false });

/** The hold of a call: its workspace's `holdProcess` and whether read rules hold it. */
export function callHoldOf(ctx: ToolContext): CallHold {
  const ws = ctx.workspace;
  return {
    readRules: ws.readDenied !== undefined,
    ...(ws.holdProcess === undefined ? {} : { holdProcess: ws.holdProcess }),
  };
}

/** How a server starts for a call. */
export interface ServerLaunch {
  /** The command to run (the server's own, or a wrapper keeping files from it). */
  readonly command: ServerCommand;
  /** The files kept from the server, one key (empty: none). */
  readonly key: string;
  /** Whether the command keeps every file the call's read rules hide from the server. */
  readonly kept: boolean;
  /** Whether the server runs apart (another process namespace: it cannot see this process's pid). */
  readonly apart: boolean;
}

/** How the server of `cmd` starts for a call held by `hold`. */
export async function serverLaunch(cmd: ServerCommand, hold: CallHold): Promise<ServerLaunch> {
  const plain = (kept: boolean): ServerLaunch => ({ command: cmd, key: '', kept, apart: false });
  if (hold.holdProcess === undefined) return plain(!hold.readRules);
  let held: HeldProcessCommand;
  try {
    held = await hold.holdProcess({ command: cmd.command, args: cmd.args });
  } catch (error) {
    // The workspace cannot keep the files from a process: the server runs as it is, not held.
    if (A3sError.isInstance(error) && error.code === 'PERMISSION_DENIED') return plain(false);
    throw error;
  }
  if (held.hidden.length === 0) return plain(true);
  return {
    command: { ...cmd, command: held.command, args: [...held.args] },
    // The files as well as their paths: one replaced since the server started is not kept from it.
    key: held.identity ?? [...held.hidden].sort().join('\u0000'),
    kept: true,
    apart: true,
  };
}
