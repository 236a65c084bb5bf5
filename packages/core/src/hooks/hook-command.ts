/**
 * Running a hook's shell command: `/bin/sh -c <command>` in the workspace folder as a
 * process-group leader, the hook input as JSON on stdin, its stdout read as an optional JSON
 * decision (`{"decision": "continue" | "block" | "modify", "reason"?, ...}`). Exit code 2 blocks
 * (stderr is the reason). On its deadline the whole group is killed and the run counts as failed.
 */
import { spawn } from 'node:child_process';

/** Default deadline of a command hook, milliseconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
const MAX_CAPTURE = 64 * 1024;

/** What a hook command did. */
export interface HookCommandRun {
  /** Exit code; `null` when it could not start or was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** A decision a command printed on stdout. */
export interface CommandDecision {
  readonly decision?: 'continue' | 'block' | 'modify';
  readonly reason?: string;
  readonly [key: string]: unknown;
}

/** Runs a hook command with `input` as JSON on stdin. Never rejects. */
export function runHookCommand(
  command: string,
  cwd: string,
  input: unknown,
  timeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
  env: Readonly<Record<string, string>> = {},
): Promise<HookCommandRun> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (b: Buffer) => {
      if (stdout.length < MAX_CAPTURE) stdout += b.toString('utf8');
    });
    child.stderr?.on('data', (b: Buffer) => {
      if (stderr.length < MAX_CAPTURE) stderr += b.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout: '', stderr: e.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: stdout.slice(0, MAX_CAPTURE).trim(),
        stderr: stderr.slice(0, MAX_CAPTURE).trim(),
        timedOut,
      });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(input));
  });
}

/** The JSON decision on a successful command's stdout, or `undefined` (empty or not a decision object). */
export function commandDecision(run: HookCommandRun): CommandDecision | undefined {
  if (run.code !== 0 || run.timedOut || !run.stdout.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(run.stdout) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as CommandDecision) : undefined;
  } catch {
    return undefined;
  }
}

/** Why a command hook failed or blocked, for the denial reason. */
export function hookFailure(run: HookCommandRun, timeoutMs: number): string {
  if (run.timedOut) return `hook command timed out after ${timeoutMs} ms`;
  return run.stderr || `hook command exited with ${run.code === null ? 'an error' : `code ${run.code}`}`;
}
