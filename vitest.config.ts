import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
// The source (no imports of its own), so the config loads before anything is built.
import { MODEL_CREDENTIAL_ENV_VARS } from './packages/core/src/invoker/tool-process-env.js';

// The tests never see the model keys of the person running them: nothing here calls a real
// provider, and with a key in their initial environment every command would run apart from the
// host (`isolateCommands: 'auto'`), where a pid a command prints (`$!`) is not the host's. Deleted
// here, before the workers are forked, so their initial environment goes without them too; a test
// that needs a key sets one itself.
for (const name of MODEL_CREDENTIAL_ENV_VARS) delete process.env[name];

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine. Many
    // files wait on child processes (language servers, kernels, debuggers, a browser), worker
    // threads and timers, so two workers a core keep the cores busy. Measured on 2 cores with the
    // suite of 2026-12-05 (3,481 tests): 3 workers 191 s (1.47 cores busy on average), 4 workers
    // 168 s, 6 workers 167 s (then it is the CPU: about 270 CPU-seconds, more than half of it in
    // the processes the tests start).
    maxWorkers: availableParallelism() * 2,
    // A worker keeps its module cache from one test file to the next instead of importing the
    // packages again for every file (that import was a third of the suite's time). Each test file
    // is still evaluated afresh; a file that changes process-wide state (env, listeners, globals)
    // must restore it (the whole suite passes this way). No test uses vi.mock.
    isolate: false,
    setupFiles: ['test/support/release-credentials.ts'],
  },
});
