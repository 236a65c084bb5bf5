import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/ast.ts', 'src/lsp.ts', 'src/eval.ts', 'src/debug.ts', 'src/vibe.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'es2022',
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  tsconfig: 'tsconfig.build.json',
});
