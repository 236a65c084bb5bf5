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
export function testServer(
  label: string,
  options: { child?: boolean; env?: Record<string, string>; extra?: Partial<McpStdioServerConfig> } = {},
): McpStdioServerConfig {
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
export async function waitFor(check: () => boolean, ms = 5_000): Promise<boolean> {
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

/**
 * Watches this process's event loop from now on: `stop()` returns the longest stretch in which it
 * could not run (another process had the CPU, or a long pause), beyond the 5 ms tick. A latency
 * measured across that window, less the stall, stays meaningful on a loaded machine, while a
 * failure that waited for a timer or a polling loop would still show.
 */
export function stallWatch(): { stop(): number } {
  let last = Date.now();
  let stalled = 0;
  // Every tick that came late adds its lateness: under load the loop loses many short slices.
  const tick = setInterval(() => {
    const now = Date.now();
    stalled += Math.max(0, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(tick);
      return stalled + Math.max(0, Date.now() - last - 5);
    },
  };
}
