import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// What a user reads of a public class (in a stack trace, `console.log`, `err.constructor.name`) is
// the name it is exported under: the bundle keeps class names as written. Runs the built entries.
const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages'));

/** Every `import` entry of a package's `exports`, as a path inside the package. */
function entries(pkg: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')) as {
    exports?: Record<string, { import?: string } | string>;
  };
  return Object.values(manifest.exports ?? {}).flatMap((e) =>
    typeof e === 'string' ? [e] : e.import ? [e.import] : [],
  );
}

describe('exported names', () => {
  it('every exported class is named as it is exported (no bundler `_Name`)', async () => {
    const wrong: string[] = [];
    let classes = 0;
    for (const pkg of packages)
      for (const entry of entries(pkg).filter((e) => e.endsWith('.js'))) {
        const mod = (await import(pathToFileURL(join(root, 'packages', pkg, entry)).href)) as Record<string, unknown>;
        for (const [key, value] of Object.entries(mod)) {
          if (typeof value !== 'function' || !/^class[\s{]/.test(Function.prototype.toString.call(value))) continue;
          classes++;
          if (value.name !== key) wrong.push(`${pkg}/${entry}: ${key} is named '${value.name}'`);
        }
      }
    expect(classes).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });
});
