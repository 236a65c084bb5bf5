/**
 * Finds a ripgrep binary: the one shipped by `@vscode/ripgrep` (inside an optional dependency,
 * nothing downloaded at install), else `rg` on `PATH`, else none (the JS engine is used).
 */
import { spawnSync } from 'node:child_process';

let cached: Promise<string | undefined> | undefined;

function works(path: string): boolean {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 5000 });
  return r.status === 0 && r.stdout.startsWith('ripgrep');
}

/** The path of a working `rg`, or `undefined`. Resolved once per process. */
export function findRipgrep(): Promise<string | undefined> {
  cached ??= (async () => {
    try {
      const mod = (await import('@vscode/ripgrep')) as { rgPath?: string };
      if (mod.rgPath && works(mod.rgPath)) return mod.rgPath;
    } catch {
      // No binary for this platform: fall through to PATH.
    }
    return works('rg') ? 'rg' : undefined;
  })();
  return cached;
}
