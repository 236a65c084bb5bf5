import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerFromSource } from './worker-from-source.js';

describe('program workers started from the sources', () => {
  it('use one bundle of the worker, named by its content and made once, that imports no TypeScript file', () => {
    const entry = new URL('./program-worker.ts', import.meta.url);
    const a = workerFromSource(entry);
    const b = workerFromSource(entry);
    expect('url' in a && 'url' in b).toBe(true);
    if (!('url' in a) || !('url' in b)) return;
    expect(a.url.href).toBe(b.url.href);
    const file = fileURLToPath(a.url);
    expect(file).toMatch(/node_modules\/\.cache\/a3s-workers\/[0-9a-f]{16}\.mjs$/);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/from ["'][^"']*\.ts["']/);
    expect(text).toMatch(/from ["']quickjs-emscripten-core["']/);
  });
});
