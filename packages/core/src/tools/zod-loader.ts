/**
 * zod, loaded on first use rather than when core is imported: a process that never validates a
 * tool call, a config file or a script does not load its ~200 modules. Loading is synchronous so
 * that validation stays synchronous: the ES module that `import 'zod'` would give (the same
 * instance as the caller's), through `require` of an ES module (Node ≥ 20.19), or zod's CommonJS
 * build where that is unavailable.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The zod module (`import * as zod from 'zod'`). */
export type ZodModule = typeof import('zod');
/** The `z` namespace of zod, as a schema builder receives it (`defineTool({ input: (z) => … })`, {@link lazyZod}). */
export type Zod = ZodModule['z'];

const load = createRequire(import.meta.url);
let zod: ZodModule | undefined;

/** The `z` namespace of zod, loading zod on the first call. */
export function loadZod(): Zod {
  if (zod === undefined) {
    try {
      zod = load(fileURLToPath(import.meta.resolve('zod'))) as ZodModule;
    } catch {
      zod = load('zod') as ZodModule;
    }
  }
  return zod.z;
}

/** Whether zod has been loaded by {@link loadZod}. */
export function zodLoaded(): boolean {
  return zod !== undefined;
}

/**
 * A memoised schema builder: `build(z)` runs once, on the first call, with zod loaded then, and
 * every call returns what it built. A module that defines its zod schemas with it does not load
 * zod when it is imported: `const schema = lazyZod((z) => z.object({ … }))`, then `schema().parse(v)`.
 */
export function lazyZod<T>(build: (z: Zod) => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build(loadZod()) };
    return built.value;
  };
}
