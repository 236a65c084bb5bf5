/**
 * Opens an SDK session from the CLI flags. The CLI adds only host choices — which tools run
 * without asking, YOLO, plan mode, how to park — and the SDK and core do the rest (ARCH-01:
 * the same kernel as every other host).
 */
import { existsSync, statSync } from 'node:fs';
import { Agent, type Session, type SessionOptions } from '@a3s-code/sdk';
import type { SessionFlags } from './args.js';
import { UsageError } from './errors.js';

/** Read-only tools run without asking; everything else asks (or runs under `--yolo`). */
export const CLI_ALLOW_RULES: readonly string[] = Object.freeze(['read', 'grep', 'glob', 'ls', 'batch', 'ask_user']);

/** Opens a session on `flags.cwd` with the flags' model, YOLO and plan mode, plus `extra` options. */
export async function openSession(flags: SessionFlags, env: Readonly<Record<string, string | undefined>>, extra: SessionOptions = {}): Promise<Session> {
  if (!existsSync(flags.cwd) || !statSync(flags.cwd).isDirectory()) throw new UsageError(`--cwd: '${flags.cwd}' is not a folder`);
  const agent = await Agent.create({ env, cwd: process.cwd(), ...(flags.model === undefined ? {} : { model: flags.model }) });
  return agent.session(flags.cwd, {
    permissions: { allow: CLI_ALLOW_RULES },
    governance: { ...(flags.plan ? { mode: 'plan' as const } : {}), ...(flags.yolo ? { yolo: true } : {}) },
    ...extra,
  });
}
