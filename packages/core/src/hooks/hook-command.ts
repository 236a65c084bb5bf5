/**
 * Running a hook's shell command: `/bin/sh -c <command>` in the workspace folder as a
 * process-group leader, the hook input as JSON on stdin, its stdout read as an optional JSON
 * decision (`{"decision": "continue" | "block" | "modify", "reason"?, ...}`). Exit code 2 blocks
 * (stderr is the reason). On its deadline the whole group is killed and the run counts as failed;
 * a descendant that left the group and keeps the output pipes open holds the run no longer than
 * that deadline (or a short drain after the shell itself exited).
 */
import { spawn } from 'node:child_process';

/** Default deadline of a command hook, milliseconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
const MAX_CAPTURE = 64 * 1024;
/** How long the pipes may stay open after the shell exited (a background descendant holding them). */
const DRAIN_AFTER_EXIT_MS = 1000;
/** The decisions a command may print. */
const DECISIONS = ['continue', 'block', 'modify'] as const;

/** What a hook command did. */
export interface HookCommandRun {
  /** Exit code; `null` when it could not start or was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** True when stdout was longer than the capture limit and was cut. */
  readonly stdoutTruncated?: boolean;
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
    let settled = false;
    let drain: ReturnType<typeof setTimeout> | undefined;
    child.stdout?.on('data', (b: Buffer) => {
      if (stdout.length <= MAX_CAPTURE) stdout += b.toString('utf8');
    });
    child.stderr?.on('data', (b: Buffer) => {
      if (stderr.length <= MAX_CAPTURE) stderr += b.toString('utf8');
    });
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      // A descendant may still hold the pipes: stop reading them so nothing waits on it.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        code: timedOut ? null : code,
        stdout: stdout.slice(0, MAX_CAPTURE).trim(),
        stderr: stderr.slice(0, MAX_CAPTURE).trim(),
        timedOut,
        ...(stdout.length > MAX_CAPTURE ? { stdoutTruncated: true } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      finish(null);
    }, timeoutMs);
    child.on('error', (e) => {
      if (settled) return;
      stderr = e.message;
      stdout = '';
      finish(null);
    });
    child.on('exit', (code) => {
      drain ??= setTimeout(() => finish(code), DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code) => finish(code));
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

/**
 * Why the stdout of a successful command is no valid decision, or `undefined` when it is one or
 * holds none (empty, or text that does not start with `{`). Something that starts as a JSON object
 * but does not parse (cut at the capture limit, a typo), is no object, or names no known
 * `decision` is reported, so a hook that gates a call can fail closed instead of passing it.
 */
export function decisionProblem(run: HookCommandRun): string | undefined {
  if (run.code !== 0 || run.timedOut || !run.stdout.startsWith('{')) return undefined;
  const allowed = `allowed: a JSON object {"decision": ${DECISIONS.map((d) => `"${d}"`).join(' | ')}, "reason"?: string, ...} of at most ${MAX_CAPTURE} bytes`;
  if (run.stdoutTruncated === true) return `hook command printed more than ${MAX_CAPTURE} bytes on stdout; ${allowed}`;
  const d = commandDecision(run);
  if (d === undefined) return `hook command printed a decision that is not valid JSON; ${allowed}`;
  if (d.decision !== undefined && !(DECISIONS as readonly unknown[]).includes(d.decision))
    return `hook command printed the unknown decision ${JSON.stringify(d.decision).slice(0, 80)}; ${allowed}`;
  if (d.reason !== undefined && typeof d.reason !== 'string')
    return `hook command printed a "reason" that is not a string; ${allowed}`;
  return undefined;
}

/** Why a command hook failed or blocked, for the denial reason. */
export function hookFailure(run: HookCommandRun, timeoutMs: number): string {
  if (run.timedOut) return `hook command timed out after ${timeoutMs} ms`;
  return run.stderr || `hook command exited with ${run.code === null ? 'an error' : `code ${run.code}`}`;
}
