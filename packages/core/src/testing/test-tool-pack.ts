/**
 * An in-memory tool pack for tests: tools of every tier with varied schemas, real behaviour and
 * an execution log, so tests can prove what ran and what did not.
 */
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack, type ToolPack } from '../tools/tool-pack.js';
import type { Tool } from '../tools/tool.js';

/** One recorded execution. */
export interface TestExecution {
  readonly tool: string;
  readonly args: unknown;
  readonly callId: string;
  readonly source: string;
  readonly depth: number;
}

/** State shared by the tools of one test pack. */
export interface TestToolState {
  /** Every execution, in start order. */
  readonly executions: TestExecution[];
  /** Files written by `write_note`. */
  readonly notes: Map<string, string>;
  /** Calls of `sleep` running right now, and the most seen at once. */
  running: number;
  maxRunning: number;
}

/** Options of {@link createTestToolPack}. */
export interface TestToolPackOptions {
  /** `maxParallelism` of `sleep`. Default 4. */
  readonly sleepParallelism?: number;
}

/** A test pack and its state. */
export interface TestToolPack {
  readonly pack: ToolPack;
  readonly state: TestToolState;
}

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates the pack: `echo` (read), `add` (read), `sleep` (read, honours cancellation), `noop`
 * (read), `fail` (read, exit code 2), `write_note` (write, requires `fs.write`), `run` (exec,
 * requires `exec`), `nest` (read, calls another tool through its scoped invoker).
 */
export function createTestToolPack(options: TestToolPackOptions = {}): TestToolPack {
  const state: TestToolState = { executions: [], notes: new Map(), running: 0, maxRunning: 0 };
  const record = (tool: string, args: unknown, ctx: { callId: string; source: string; depth: number }): void => {
    state.executions.push({ tool, args, callId: ctx.callId, source: ctx.source, depth: ctx.depth });
  };
  const tools: Tool[] = [
    defineTool({
      name: 'echo',
      description: 'Repeat text.',
      tier: 'read',
      input: z.object({ text: z.string(), times: z.number().int().min(1).max(10).default(1) }).strict(),
      capabilities: { readOnly: true, idempotent: true },
      execute: async (args, ctx) => {
        record('echo', args, ctx);
        return { output: args.text.repeat(args.times), exitCode: 0 };
      },
    }),
    defineTool({
      name: 'add',
      description: 'Add two numbers.',
      tier: 'read',
      input: z.object({ a: z.number(), b: z.number() }).strict(),
      capabilities: { readOnly: true, idempotent: true, outputType: 'json' },
      execute: async (args, ctx) => {
        record('add', args, ctx);
        return { output: String(args.a + args.b), exitCode: 0, metadata: { sum: args.a + args.b } };
      },
    }),
    defineTool({
      name: 'sleep',
      description: 'Wait, honouring cancellation.',
      tier: 'read',
      input: z.object({ ms: z.number().int().min(0).max(10_000) }).strict(),
      capabilities: {
        readOnly: true,
        idempotent: true,
        cancelSafe: true,
        maxParallelism: options.sleepParallelism ?? 4,
      },
      execute: async (args, ctx) => {
        record('sleep', args, ctx);
        state.running += 1;
        state.maxRunning = Math.max(state.maxRunning, state.running);
        try {
          await abortable(args.ms, ctx.signal);
        } finally {
          state.running -= 1;
        }
        return { output: `slept ${args.ms}`, exitCode: 0 };
      },
    }),
    defineTool({
      name: 'noop',
      description: 'Do nothing.',
      tier: 'read',
      input: z.object({}).strict(),
      capabilities: { readOnly: true, idempotent: true, maxParallelism: 1024 },
      execute: async () => ({ output: '', exitCode: 0 }),
    }),
    defineTool({
      name: 'fail',
      description: 'Return exit code 2.',
      tier: 'read',
      input: z.object({ message: z.string() }).strict(),
      capabilities: { readOnly: true, idempotent: true },
      execute: async (args, ctx) => {
        record('fail', args, ctx);
        return { output: args.message, exitCode: 2 };
      },
    }),
    defineTool({
      name: 'write_note',
      description: 'Write a note.',
      tier: 'write',
      requires: ['fs.write'],
      input: z
        .object({
          path: z.string().min(1),
          content: z.string(),
          mode: z.enum(['replace', 'append']).default('replace'),
        })
        .strict(),
      execute: async (args, ctx) => {
        record('write_note', args, ctx);
        const prev = args.mode === 'append' ? (state.notes.get(args.path) ?? '') : '';
        state.notes.set(args.path, prev + args.content);
        return { output: `wrote ${args.path}`, exitCode: 0 };
      },
    }),
    defineTool({
      name: 'run',
      description: 'Pretend to run a command (records it).',
      tier: 'exec',
      requires: ['exec'],
      input: z.object({ command: z.string().min(1), args: z.array(z.string()).max(16).optional() }).strict(),
      execute: async (args, ctx) => {
        record('run', args, ctx);
        return { output: `ran ${args.command}`, exitCode: 0 };
      },
    }),
    defineTool({
      name: 'nest',
      description: 'Call another tool through the scoped invoker.',
      tier: 'read',
      input: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) }).strict(),
      execute: async (args, ctx) => {
        record('nest', args, ctx);
        const r = await ctx.invoker.invoke(args.tool, args.args);
        return {
          output: r.output,
          exitCode: r.exitCode,
          metadata: { inner_source: r.source, inner_error: r.errorKind ?? null },
        };
      },
    }),
  ];
  return { pack: defineToolPack({ name: '@a3s-code/core/testing', version: '0.1.0', tools }), state };
}
