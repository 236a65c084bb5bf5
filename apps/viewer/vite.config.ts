import { defineConfig } from 'vite';

// Relative asset URLs, so the built viewer works from any folder and under `a3s replay --web`.
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, reportCompressedSize: false },
  worker: { format: 'es' },
});
