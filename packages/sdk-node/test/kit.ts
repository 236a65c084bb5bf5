// Shared setup of the SDK tests: a temporary git repository holding a tiny project.
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { z } from 'zod';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type Session, type SessionOptions } from '../src/index.js';

/** Creates a git repository with `src/range.js` (an off-by-one), its test and a README; returns its path. */
export function tempRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'README.md'), '# demo\n\nSee PermissionPolicy notes.\n');
  writeFileSync(
    join(dir, 'src', 'range.js'),
    'export function range(start, end) {\n  const out = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
  );
  writeFileSync(
    join(dir, 'test', 'range.test.js'),
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { range } from '../src/range.js';\ntest('ends included', () => assert.deepEqual(range(1, 3), [1, 2, 3]));\n",
  );
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  return dir;
}

/** The MCP fixture server of these tests, started with `label` (its process is found by it). */
export const mcpServer = (label: string) => ({
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/mcp-server.mjs', import.meta.url)), label],
});

/** True once the process no longer runs (gone or a zombie). */
export function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return true;
  }
}

/** Polls `check` every 10 ms until it holds (true) or `ms` pass (false). */
export async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** A recorded tool result, as the fact log holds it. */
export interface RecordedResult {
  readonly tool_call_id: string;
  readonly ok: boolean;
  readonly output: string;
  readonly metadata?: unknown;
}

/** The tool results in a session's fact log, by call id. */
export const toolResults = (s: Session): Map<string, RecordedResult> =>
  new Map(
    s.core.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => {
        const p = f.payload as RecordedResult;
        return [p.tool_call_id, p] as const;
      }),
  );

/** A pack whose tool `hold` waits until the test releases it (the run is then mid-tool). */
export function holdPack() {
  let release: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const inside = new Promise<void>((r) => {
    entered = r;
  });
  const released = new Promise<void>((r) => {
    release = r;
  });
  const pack = defineToolPack({
    name: 'hold-pack',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'hold',
        description: 'Waits for the test.',
        tier: 'read',
        input: z.object({}).strict(),
        execute: async () => {
          entered();
          await released;
          return { output: 'held', exitCode: 0 };
        },
      }),
    ],
  });
  return { pack, inside, release };
}

/** A scripted model turn making one tool call. */
export const callTurn = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});

/**
 * Runs the scripted `turns` (then `Done.`) in `dir` under `permissions`, with an approver that
 * refuses (and records) every question; the session goes into `opened` for the caller to close.
 */
export async function runRefusing(
  opened: Session[],
  dir: string,
  turns: ScriptedTurn[],
  permissions: SessionOptions['permissions'],
): Promise<{ asked: string[]; got: Map<string, RecordedResult> }> {
  const asked: string[] = [];
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    ...(permissions === undefined ? {} : { permissions }),
    onConfirm: (r) => {
      asked.push(r.toolId);
      return { approved: false, reason: 'not here' };
    },
  });
  opened.push(session);
  await session.send('go').catch(() => undefined);
  return { asked, got: toolResults(session) };
}
