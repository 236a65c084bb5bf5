import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Node 20 reads and parses the whole bundle NODE_EXTRA_CA_CERTS names when any node process
// starts: ~50 ms of CPU in each of the suite's hundreds of node processes (workers, the CLI,
// servers, kernels), a sixth of a CLI test's time. No test reaches a TLS server that needs it,
// so the workers (forked after this runs) and every process they start go without it.
delete process.env.NODE_EXTRA_CA_CERTS;

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
    // threads and timers, so one worker more than the cores keeps them busy (measured on 2 cores:
    // 2 workers 112 s, 3 workers 96 s, 4 workers 105 s).
    maxWorkers: availableParallelism() + 1,
    // A worker keeps its module cache from one test file to the next instead of importing the
    // packages again for every file (that import was a third of the suite's time). Each test file
    // is still evaluated afresh; a file that changes process-wide state (env, listeners, globals)
    // must restore it (the whole suite passes this way). No test uses vi.mock.
    isolate: false,
  },
});
