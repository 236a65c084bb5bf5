#!/usr/bin/env node
// Ships the built viewer (apps/viewer/dist) inside the CLI as dist/viewer, so `a3s replay --web`
// works offline. Turbo builds the viewer first (packages/cli/turbo.json).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const from = join(here, '..', '..', '..', 'apps', 'viewer', 'dist');
const to = join(here, '..', 'dist', 'viewer');
if (!existsSync(join(from, 'index.html'))) {
  console.error(`copy-viewer: ${from} has no index.html; build the viewer first ('pnpm exec turbo run build')`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
