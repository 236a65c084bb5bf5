/**
 * Only when the package runs from its TypeScript sources (its tests under vitest, scripts under
 * tsx): where a program worker's code comes from. The sources are bundled once per process with
 * esbuild (which tsx brings) into one ES module under `node_modules/.cache` beside the package,
 * named by its content, so a new worker loads one file, as the built package's does. Loading the
 * sources through tsx's loader in every worker instead cost about 0.3 s of CPU a worker (the
 * loader's own thread and a compile of each module), and tests start many workers. Bare imports
 * stay imports, resolved from beside the package. Without esbuild the worker loads through tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

/** What a `new Worker(...)` needs for the worker at `entry` (a `.ts` file): a file URL, or code to evaluate. */
export type WorkerCode = { readonly url: URL } | { readonly eval: string };

interface EsbuildLike {
  buildSync(options: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

/** The package folder of `file`: the nearest folder above it with a `package.json`. */
function packageDir(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return dirname(file);
  }
}

/** Bundles `entry` into `node_modules/.cache/a3s-workers` of its package; `undefined` when esbuild is unavailable. */
function bundled(entry: string, tsx: string): URL | undefined {
  let esbuild: EsbuildLike;
  try {
    esbuild = createRequire(join(tsx, 'package.json'))('esbuild') as EsbuildLike;
  } catch {
    return undefined;
  }
  const out = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'silent',
  }).outputFiles?.[0]?.text;
  if (out === undefined) return undefined;
  const dir = join(packageDir(entry), 'node_modules', '.cache', 'a3s-workers');
  const name = `${createHash('sha256').update(out).digest('hex').slice(0, 16)}.mjs`;
  const file = join(dir, name);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Several test processes (or threads) may write the same bundle at once: each renames its own whole copy.
    const part = `${file}.${process.pid}.${threadId}.part`;
    writeFileSync(part, out);
    renameSync(part, file);
  }
  return pathToFileURL(file);
}

/** How to start a worker whose code is the TypeScript module `entry`. */
export function workerFromSource(entry: URL): WorkerCode {
  const tsx = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  try {
    const url = bundled(fileURLToPath(entry), tsx);
    if (url !== undefined) return { url };
  } catch {
    // A bundle that cannot be made (a source that does not compile): tsx's loader reports it in the worker.
  }
  const api = pathToFileURL(join(tsx, 'dist/esm/api/index.mjs')).href;
  return {
    eval: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`,
  };
}
