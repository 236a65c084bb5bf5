/**
 * Where a kernel runs: in the conversation's isolation sandbox when one exists, on the host
 * otherwise. The eval pack only looks the sandbox up (a host-provided lookup); it has no way to
 * start one, just as a machine tab never starts its machine. A sandbox runs a kernel by wrapping
 * its command (`docker exec -i <id> …`, `bwrap … --`, `unshare --net --`, an SSH command), with
 * the kernel's stdio pipes passed through: the tool bridge needs no port inside the sandbox.
 */
import type { EvalLanguage } from './kernel-types.js';

/** A kernel command before it is placed: the interpreter, its arguments and the workspace folder. */
export interface KernelLaunch {
  readonly language: EvalLanguage;
  readonly command: string;
  readonly args: readonly string[];
  /** The workspace folder on the host. */
  readonly cwd: string;
}

/** The command that runs a kernel inside a sandbox; its stdin, stdout and stderr must be the kernel's. */
export interface SandboxedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Where the wrapping command itself starts on the host (default: the workspace folder). */
  readonly cwd?: string;
  /** Extra environment of the wrapping command. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The conversation's isolation sandbox, as far as the eval pack needs it. */
export interface EvalSandbox {
  /** Names the sandbox in results and errors, e.g. `container a3s-7`. */
  readonly name: string;
  /** The interpreter inside the sandbox (default: `python3` for Python, `node` for JavaScript). */
  interpreter?(language: EvalLanguage, cwd: string): string;
  /** Wraps a kernel command so it runs inside the sandbox. */
  wrap(kernel: KernelLaunch): SandboxedCommand;
}

/** What a lookup is told: the session and the workspace folder. */
export interface SandboxLookupContext {
  readonly sessionId: string;
  readonly cwd: string;
}

/**
 * Finds the conversation's sandbox when one exists (undefined: none, the kernel runs on the
 * host). Asked before each cell; it must not start a sandbox.
 */
export type EvalSandboxLookup = (
  context: SandboxLookupContext,
) => EvalSandbox | undefined | Promise<EvalSandbox | undefined>;

/** Where a kernel runs, as results say it: `host` or `sandbox <name>`. */
export function placeOf(sandbox: EvalSandbox | undefined): string {
  return sandbox === undefined ? 'host' : `sandbox ${sandbox.name}`;
}
