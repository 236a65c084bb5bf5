/**
 * The five `vibe_*` tools: the lead agent's hands on its roster of background workers. All are
 * `read` tier: they change nothing themselves; the workers' own tool calls are where approvals
 * and deny rules apply. Each requires the roster resource (and, in a switched pack, vibe mode).
 */
import {
  defineTool,
  type ResourceCapability,
  type Tool,
  type ToolContext,
  type ToolArgRefinement,
  type ToolResult,
  type Zod,
} from '@a3s-code/core';
import type { z } from 'zod';
import type { VibeRoster } from './roster.js';
import { VIBE_MAX_WORKERS, VIBE_TIERS } from './vibe-types.js';
import { VIBE_RESOURCE } from './vibe-resource.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** Longest brief or message, in characters. */
const MAX_BRIEF_CHARS = 50_000;
/** Longest `vibe_wait` timeout, in seconds (a day). */
const MAX_WAIT_SECONDS = 86_400;

/** A `<field> must not be blank` issue for each of `fields` that holds only white space. */
function blank<K extends string>(args: Readonly<Record<K, string>>, fields: readonly K[]): ToolArgRefinement[] {
  return fields.filter((f) => args[f].trim() === '').map((f) => ({ path: [f], message: `${f} must not be blank` }));
}
const workerId = (z: Zod) =>
  z.string().min(1).max(64).describe('the worker_id vibe_spawn returned (vibe_list shows them all)');

const spawnInput = (z: Zod) =>
  z.strictObject({
    brief: z
      .string()
      .min(1)
      .max(MAX_BRIEF_CHARS)
      .describe('everything the worker needs: goal, files, constraints, how to check; it sees nothing else'),
    label: z.string().min(1).max(80).describe('a few words naming the worker in lists and events'),
    tier: z
      .enum(VIBE_TIERS as [string, ...string[]])
      .optional()
      .describe('fast (default): well-specified mechanical work; good: design, judgement, or reviewing a fast worker'),
  });

const sendInput = (z: Zod) =>
  z.strictObject({
    worker_id: workerId(z),
    message: z.string().min(1).max(MAX_BRIEF_CHARS).describe('added to the brief; the worker runs again with it'),
  });

const waitInput = (z: Zod) =>
  z.strictObject({
    worker_id: workerId(z),
    timeout_seconds: z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(
        `return after this many seconds even if the worker is still running (0..${MAX_WAIT_SECONDS}; default: wait until it ends)`,
      ),
  });

const killInput = (z: Zod) => z.strictObject({ worker_id: workerId(z) });
const listInput = (z: Zod) => z.strictObject({});

/** The arguments of `vibe_spawn`. */
export type VibeSpawnArgs = z.output<ReturnType<typeof spawnInput>>;
/** The arguments of `vibe_send`. */
export type VibeSendArgs = z.output<ReturnType<typeof sendInput>>;
/** The arguments of `vibe_wait`. */
export type VibeWaitArgs = z.output<ReturnType<typeof waitInput>>;
/** The arguments of `vibe_kill`. */
export type VibeKillArgs = z.output<ReturnType<typeof killInput>>;

const json = (value: unknown, exitCode = 0): ToolResult => ({
  output: JSON.stringify(value),
  exitCode,
  metadata: { vibe: value as Record<string, unknown> },
});

const roster = (ctx: ToolContext) => ctx.resource<VibeRoster>(VIBE_RESOURCE);

const CAPS = { readOnly: false, idempotent: false, outputType: 'json', maxParallelism: 16 } as const;
const DAY_MS = 86_400_000;

/** The five tools, each requiring `requires` (the roster, and vibe mode in a switched pack). */
export function createVibeTools(requires: readonly ResourceCapability[]): readonly Tool[] {
  const spawn = defineTool({
    name: 'vibe_spawn',
    description: `Start a background worker on a brief and get its worker_id at once; it works while you go on (its own session, your permissions; it cannot start workers). tier: fast (default) for well-specified mechanical work, good for design, judgement or reviewing a fast worker's output. At most ${VIBE_MAX_WORKERS.default} workers run at once by default. Follow with vibe_wait, vibe_send, vibe_kill, vibe_list.`,
    input: spawnInput,
    inputJsonSchema: toolJsonSchemas.vibe_spawn,
    plainInput: true,
    refine: (a) => blank(a, ['brief', 'label']),
    tier: 'read',
    requires,
    capabilities: CAPS,
    execute: async (args, ctx) =>
      json(
        (await roster(ctx)).spawn(ctx, {
          brief: args.brief,
          label: args.label,
          tier: args.tier as 'fast' | 'good' | undefined,
        }),
      ),
  });
  const send = defineTool({
    name: 'vibe_send',
    description:
      'Add a message to a worker’s brief and run it again with it (its earlier work stays in its context; a running worker is restarted). Returns at once.',
    input: sendInput,
    inputJsonSchema: toolJsonSchemas.vibe_send,
    plainInput: true,
    refine: (a) => blank(a, ['message']),
    tier: 'read',
    requires,
    capabilities: CAPS,
    execute: async (args, ctx) => json(await (await roster(ctx)).send(ctx, args)),
  });
  const wait = defineTool({
    name: 'vibe_wait',
    description:
      'Block until a worker finishes and return its result (status, last_result, error). With timeout_seconds, return after that long with its current state (done: false, timed_out: true).',
    input: waitInput,
    inputJsonSchema: toolJsonSchemas.vibe_wait,
    plainInput: true,
    tier: 'read',
    requires,
    capabilities: { ...CAPS, readOnly: true, idempotent: true },
    timeoutMs: DAY_MS,
    execute: async (args, ctx) => {
      const r = await (await roster(ctx)).wait(ctx, args);
      return json(r, r.done && r.status !== 'completed' ? 1 : 0);
    },
  });
  const kill = defineTool({
    name: 'vibe_kill',
    description: 'Stop a running worker (status killed). A worker that is not running is reported as it is.',
    input: killInput,
    inputJsonSchema: toolJsonSchemas.vibe_kill,
    plainInput: true,
    tier: 'read',
    requires,
    capabilities: CAPS,
    execute: async (args, ctx) => json(await (await roster(ctx)).kill(args)),
  });
  const list = defineTool({
    name: 'vibe_list',
    description:
      'List the workers of this session: worker_id, label, tier, status (running, completed, failed, parked, killed, cancelled, interrupted), elapsed_seconds, runs and last_result (a preview).',
    input: listInput,
    inputJsonSchema: toolJsonSchemas.vibe_list,
    plainInput: true,
    tier: 'read',
    requires,
    capabilities: { ...CAPS, readOnly: true, idempotent: true },
    execute: async (_args, ctx) => {
      const r = await roster(ctx);
      return json({ workers: r.list(), running: r.running, max_workers: r.maxWorkers });
    },
  });
  return [spawn, send, wait, kill, list] as unknown as readonly Tool[];
}
