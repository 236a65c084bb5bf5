import { defineConfig } from 'tsup';

export default defineConfig({
  // program-worker is a worker_threads entry loaded by URL beside the bundle (src/program/worker-pool.ts).
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', 'program-worker': 'src/program/program-worker.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
});
