/**
 * Helpers shared by the MCP tests: the fixture server's configuration and process checks read
 * from `/proc`. A `ToolContext` for direct `execute` calls comes from `@a3s-code/core/testing`
 * (`createToolContext`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../src/index.js';

/** Absolute path of a fixture file. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Configuration of the SDK-written test server labelled `label`. */
export function testServer(label: string, options: { child?: boolean; env?: Record<string, string>; extra?: Partial<McpStdioServerConfig> } = {}): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: [fixturePath('test-server.mjs'), '--name', label, ...(options.child === true ? ['--child'] : [])],
    ...(options.env === undefined ? {} : { env: options.env }),
    ...options.extra,
  };
}

/** `/proc/<pid>/stat` fields after the command name: state, ppid, pgrp; `undefined` once the process is gone. */
export function procStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
}

/** True when the process no longer runs (gone, or a zombie nobody has reaped yet). */
export function processGone(pid: number): boolean {
  const s = procStat(pid);
  return s === undefined || s.state === 'Z' || s.state === 'X';
}

/** Polls `check` every 10 ms until it holds or `ms` passes; returns whether it held. */
export async function waitFor(check: () => boolean, ms = 2_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** Parses the `pid` tool's output. */
export function parsePids(output: string): { pid: number; child: number | null } {
  return JSON.parse(output) as { pid: number; child: number | null };
}
