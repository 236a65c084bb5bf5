import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Layering (ARCHITECTURE §2): arrows point down only, and packages meet only at public entries.
//   cli, apps ──> sdk-node ──> tools-workspace, tools-web, tools-resource, mcp, providers ──> core ──> effect
const root = resolve(import.meta.dirname, '..');
const ALLOWED: Record<string, string[]> = {
  effect: [],
  core: ['effect'],
  'tools-workspace': ['core'],
  'tools-web': ['core'],
  'tools-resource': ['core'],
  mcp: ['core'],
  providers: ['effect', 'core'],
  'sdk-node': ['effect', 'core', 'tools-workspace', 'tools-web', 'tools-resource', 'mcp', 'providers'],
  cli: ['effect', 'core', 'sdk-node'],
};

interface Pkg {
  dir: string;
  name: string;
  folder: string;
  /** Public subpath entries besides the main one and `/testing` (a pack family's `/ast`, ...). */
  subpaths: string[];
}

const packages: Pkg[] = readdirSync(join(root, 'packages'))
  .filter((d) => existsSync(join(root, 'packages', d, 'package.json')))
  .map((d) => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8'));
    const exported = Object.keys((manifest.exports ?? {}) as Record<string, unknown>);
    return {
      dir: join(root, 'packages', d),
      folder: d,
      name: manifest.name as string,
      subpaths: exported.filter((e) => e !== '.' && e !== './package.json').map((e) => e.slice(1)),
    };
  });
const byName = new Map(packages.map((p) => [p.name, p]));

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(p);
    return /\.(ts|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('layering', () => {
  it('every package folder is a known layer', () => {
    for (const p of packages)
      expect(Object.keys(ALLOWED), `packages/${p.folder} has no place in the layering`).toContain(p.folder);
  });

  it.each(packages.map((p) => [p.folder, p] as const))(
    '%s imports only lower layers, through their public entries',
    (_, pkg) => {
      const allowed = ALLOWED[pkg.folder] ?? [];
      for (const file of [...sources(join(pkg.dir, 'src')), ...sources(join(pkg.dir, 'test'))]) {
        for (const spec of imports(file)) {
          const where = `${relative(root, file)} imports '${spec}'`;
          if (spec.startsWith('.')) {
            const target = resolve(file, '..', spec);
            expect(target.startsWith(`${pkg.dir}/`), `${where}: a relative import may not leave its package`).toBe(
              true,
            );
            continue;
          }
          const m = /^(@a3s-code\/[^/]+)(\/.*)?$/.exec(spec);
          if (!m) continue;
          const target = byName.get(m[1]!);
          expect(target, `${where}: unknown workspace package`).toBeDefined();
          if (target === pkg) continue;
          expect(allowed, `${where}: ${pkg.folder} may import only ${allowed.join(', ') || 'nothing'}`).toContain(
            target!.folder,
          );
          expect(
            m[2] === undefined || m[2] === '/testing' || target!.subpaths.includes(m[2]!),
            `${where}: only the public entries (the package, /testing, or a subpath it exports) may be imported`,
          ).toBe(true);
        }
      }
    },
  );

  it('the viewer app (apps/viewer) is built on effect alone: no other package, no node:* in its page code', () => {
    const dir = join(root, 'apps', 'viewer');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const workspaceDeps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((d) =>
      d.startsWith('@a3s-code/'),
    );
    expect(workspaceDeps).toEqual(['@a3s-code/effect']);
    const files = sources(join(dir, 'src'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const spec of imports(file)) {
        const where = `${relative(root, file)} imports '${spec}'`;
        if (spec.startsWith('.')) {
          expect(resolve(file, '..', spec).startsWith(`${dir}/`), `${where}: leaves the app`).toBe(true);
          continue;
        }
        expect(spec, `${where}: the viewer may import only @a3s-code/effect`).toBe('@a3s-code/effect');
      }
    }
  });

  it.each(packages.map((p) => [p.folder, p] as const))('%s declares only lower layers as dependencies', (_, pkg) => {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8'));
    const deps = { ...manifest.dependencies, ...manifest.peerDependencies };
    for (const dep of Object.keys(deps)) {
      const target = byName.get(dep);
      if (target) expect(ALLOWED[pkg.folder], `${pkg.name} depends on ${dep}`).toContain(target.folder);
    }
  });
});
