/**
 * What "always" on a confirmation card covers, said on the card in the same words: a bash command
 * is remembered by its program (`echo`), and a later command is covered only when it is made of
 * that program's commands alone, as an allow rule `Bash(echo:*)` would judge it (no other program
 * in a pipe, list or substitution, no write outside the workspace), and has no `>` redirect; a
 * command whose first word is no plain program name is remembered exactly. A verify call (whose
 * approval also covers the commands it runs) is remembered by its exact commands. Any other tool
 * is remembered as a whole, and the card says so.
 */
import { PermissionPolicy, type ConfirmationRequest } from '@a3s-code/core';
import { verifyCommands } from './card-commands.js';

/** What one "always" answer covers. */
export interface AlwaysScope {
  /** The key every call it covers shares (with the tool and the rule that asked). */
  readonly key: string;
  /** The words on the card and the approval line, e.g. `bash commands that run only 'echo', without a > redirect`. */
  readonly says: string;
  /** Whether a later call with the same key is covered (its own arguments checked again). */
  covers(request: ConfirmationRequest): boolean;
}

/** A program name: letters, digits and `_ . / @ + -`, not an assignment, quote or expansion. */
const PROGRAM = /^\s*([\w./@+-]+)(?=\s|$)/;

/** The bash command of a call's arguments, when it has one. */
function commandOf(args: unknown): string | undefined {
  const command = typeof args === 'object' && args !== null ? (args as { command?: unknown }).command : undefined;
  return typeof command === 'string' ? command : undefined;
}

/**
 * What "always" covers for `request`; `root` is the session's workspace (a program scope needs it
 * to keep writes outside the workspace asked; without it a command is remembered exactly).
 */
export function alwaysScope(request: ConfirmationRequest, root: string | undefined): AlwaysScope {
  const base = `${request.toolName}\u0000${request.rule}`;
  // A verify's approval covers the commands it runs: "always" covers later verify calls running
  // exactly these commands, never any command a later verify names.
  if (request.toolName === 'verify') {
    const checks = verifyCommands(request.args);
    const key = JSON.stringify(checks);
    return {
      key: `${base}\u0000=${key}`,
      says: `verify calls running exactly ${checks.length === 1 ? 'this command' : `these ${checks.length} commands`}`,
      covers: (r) => JSON.stringify(verifyCommands(r.args)) === key,
    };
  }
  const command = request.toolName === 'bash' ? commandOf(request.args) : undefined;
  if (request.toolName !== 'bash' || command === undefined)
    return {
      key: base,
      says: `every ${request.toolName} call, whatever its arguments`,
      covers: () => true,
    };
  const program = PROGRAM.exec(command)?.[1];
  if (program === undefined || root === undefined)
    return {
      key: `${base}\u0000=${command}`,
      says: 'this exact command',
      covers: (r) => commandOf(r.args) === command,
    };
  let policy: PermissionPolicy;
  try {
    policy = new PermissionPolicy({ allow: [`Bash(${program}:*)`] });
  } catch {
    return {
      key: `${base}\u0000=${command}`,
      says: 'this exact command',
      covers: (r) => commandOf(r.args) === command,
    };
  }
  return {
    key: `${base}\u0000${program}`,
    says: `bash commands that run only '${program}', without a > redirect`,
    covers: (r) => {
      const later = commandOf(r.args);
      return (
        later !== undefined &&
        PROGRAM.exec(later)?.[1] === program &&
        !later.includes('>') &&
        policy.evaluate('bash', r.args, root).decision === 'allow'
      );
    },
  };
}
