// The eval kernel's tool() bridge on real kernels: while a bridged call is outstanding, the kernel
// holds no IP socket and no listening or named Unix socket, and the host has opened no listening
// port: the call goes through the kernel's own channel (the pipes it was started with).
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScopedInvoker, Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVAL_RESOURCE, type EvalResource, evalTool, openEvalResource } from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]!);
    } catch {
      // closed while listing
    }
  }
  return out;
}

/** Rows of a /proc/net table (header dropped), split on blanks. */
function rows(file: string): string[][] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));
}

const IP_TABLES = ['tcp', 'tcp6', 'udp', 'udp6', 'raw', 'raw6'];
/**
 * The listening TCP sockets `pid` holds, as `table:local-address` (only its own: other test files
 * running beside this one open servers of their own on the machine).
 */
function listeningPorts(pid: number): Set<string> {
  const mine = socketInodes(pid);
  const out = new Set<string>();
  for (const t of ['tcp', 'tcp6'])
    for (const r of rows(`/proc/${pid}/net/${t}`)) if (r[3] === '0A' && mine.has(r[9]!)) out.add(`${t}:${r[1]}`);
  return out;
}

/** What a process holds beyond pipes: IP sockets, listening Unix sockets, named Unix sockets. */
function networkOf(pid: number): { ip: string[]; unixListening: string[]; unixNamed: string[] } {
  const mine = socketInodes(pid);
  const ip = IP_TABLES.flatMap((t) =>
    rows(`/proc/${pid}/net/${t}`)
      .filter((r) => mine.has(r[9]!))
      .map((r) => `${t}:${r[1]}`),
  );
  const unix = rows(`/proc/${pid}/net/unix`).filter((r) => mine.has(r[6]!));
  return {
    ip,
    // Flags 00010000: __SO_ACCEPTCON, a socket that listens.
    unixListening: unix.filter((r) => (Number.parseInt(r[3]!, 16) & 0x10000) !== 0).map((r) => r[6]!),
    unixNamed: unix.filter((r) => r.length > 7).map((r) => r.slice(7).join(' ')),
  };
}

let dir: string;
let kernels: EvalResource;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-bridge-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `code` whose bridged call `probe` looks at the kernel while the call is outstanding. */
async function bridged(language: 'python' | 'javascript', code: string) {
  const seen: { pid: number; kernel: ReturnType<typeof networkOf>; ports: Set<string> }[] = [];
  const invoker: ScopedInvoker = {
    invoke: async (name) => {
      const pid = kernels.kernels()[0]!.pid;
      // Let the kernel sit in its wait for the answer before looking.
      await new Promise((r) => setTimeout(r, 50));
      seen.push({ pid, kernel: networkOf(pid), ports: listeningPorts(process.pid) });
      return { id: 'n', name, source: 'nested', ok: true, output: 'probed', exitCode: 0, metadata: {}, durationMs: 0 };
    },
    toolNames: () => ['probe'],
    capabilitiesOf: () => undefined,
  };
  const ctx = createToolContext({
    workspace: diskWorkspace(dir),
    resources: { [EVAL_RESOURCE]: kernels },
    invoker,
  });
  // A kernel started before the first look: the listening ports then are the host's own.
  await (evalTool as unknown as Tool<Record<string, unknown>>).execute(
    { description: 'start the kernel for the probe', language, code: '1' },
    ctx,
  );
  const before = listeningPorts(process.pid);
  const result: ToolResult = await (evalTool as unknown as Tool<Record<string, unknown>>).execute(
    { description: 'call a tool through the bridge', language, code },
    ctx,
  );
  return { result, seen, before };
}

describe('eval: the tool bridge channel', () => {
  for (const [language, code] of [
    ['javascript', 'await tool("probe", {})'],
    ['python', 'tool("probe", {})'],
  ] as const)
    it(`EVAL-08: a bridged call from a ${language} kernel opens no port and uses no socket of its own`, async () => {
      const { result, seen, before } = await bridged(language, code);
      expect(result.exitCode, result.output).toBe(0);
      expect(result.output).toBe("'probed'");
      expect(result.metadata?.bridge_calls).toBe(1);
      expect(seen).toHaveLength(1);
      const [{ kernel, ports }] = seen as [(typeof seen)[number]];
      expect(kernel).toEqual({ ip: [], unixListening: [], unixNamed: [] });
      expect([...ports].filter((p) => !before.has(p))).toEqual([]);
    });
});
