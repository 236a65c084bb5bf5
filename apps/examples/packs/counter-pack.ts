/**
 * An example tool pack: one resource with a lifecycle and one tool that needs it.
 *
 * `resource.counter` stands in for anything a session opens once and keeps (a language server,
 * a kernel, a browser): `open` starts a ticking timer with its own state, `close` stops it. It
 * opens lazily, on the first call of `count`; the session closes it. `count` requires the
 * resource, so it is on the surface only while the resource is attached and has not failed.
 */
import { defineToolPack, type OpenedResource, type Tool, type ToolPack, type ToolResource } from '@a3s-code/sdk';

/** What `open` resolves to, and what `count` gets back from `ctx.resource('resource.counter')`. */
export interface Counter extends OpenedResource {
  /** Adds `by` and returns the new total. */
  add(by: number): number;
  /** Timer ticks since the counter opened. */
  readonly ticks: number;
}

/** What the pack's resource did, for tests and demos. */
export interface CounterEvents {
  /** Calls of `open` (including failed ones). */
  opened: number;
  /** Calls of `close`. */
  closed: number;
}

/** Options of {@link counterPack}. */
export interface CounterPackOptions {
  /** Make `open` fail with this message (to see how a failed resource is reported). */
  readonly failWith?: string;
  /** When the resource opens: `lazy` (default) on the first call of `count`, `session` while the session is built. */
  readonly opens?: 'lazy' | 'session';
}

/** A counter pack, and a record of how often its resource opened and closed. */
export function counterPack(options: CounterPackOptions = {}): {
  readonly pack: ToolPack;
  readonly events: CounterEvents;
} {
  const events: CounterEvents = { opened: 0, closed: 0 };

  const counter: ToolResource<Counter> = {
    capability: 'resource.counter',
    opens: options.opens ?? 'lazy',
    open: async () => {
      events.opened += 1;
      if (options.failWith !== undefined) throw new Error(options.failWith);
      let total = 0;
      let ticks = 0;
      const timer = setInterval(() => {
        ticks += 1;
      }, 1_000);
      timer.unref();
      return {
        add: (by) => (total += by),
        get ticks() {
          return ticks;
        },
        close: async () => {
          clearInterval(timer);
          events.closed += 1;
        },
      };
    },
  };

  const count: Tool<{ by?: number }> = {
    name: 'count',
    description: 'Adds `by` (default 1) to the session counter and returns the new total.',
    inputSchema: {
      type: 'object',
      properties: { by: { type: 'integer', minimum: 1, maximum: 100 } },
      additionalProperties: false,
    },
    tier: 'read',
    capabilities: { readOnly: false, idempotent: false },
    requires: ['resource.counter'],
    async execute(args, ctx) {
      const c = await ctx.resource<Counter>('resource.counter');
      const total = c.add(args.by ?? 1);
      return { output: `count: ${total}`, exitCode: 0, metadata: { total } };
    },
  };

  const pack = defineToolPack({ name: 'counter-pack', version: '1.0.0', tools: [count], resources: [counter] });
  return { pack, events };
}
