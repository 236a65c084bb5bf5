import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// No package has an import cycle among its modules (value imports; `import type` is erased at
// build time and cannot cycle at run time): every module can be loaded, and lazily, on its own.
// Type-only imports are held to the same rule: a type-only cycle ties modules together just as
// tightly for a reader, and is one value import away from a runtime cycle.
const root = resolve(import.meta.dirname, '..');
const packages = readdirSync(join(root, 'packages')).filter((d) => existsSync(join(root, 'packages', d, 'src')));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' || e.name === 'test-support' || e.name === '__fixtures__'
        ? []
        : modules(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;
const ANY_IMPORT = /^(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;

function graphOf(src: string, pattern = VALUE_IMPORT): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of modules(src)) {
    const deps: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
      if (existsSync(target)) deps.push(target);
      else if (existsSync(target.replace(/\.ts$/, '/index.ts'))) deps.push(target.replace(/\.ts$/, '/index.ts'));
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

function cyclesIn(pkg: string, pattern: RegExp): string[] {
  const src = join(root, 'packages', pkg, 'src');
  return cycles(graphOf(src, pattern)).map((c) =>
    c
      .map((f) => relative(src, f))
      .sort()
      .join(' ↔ '),
  );
}

describe('import cycles', () => {
  it.each(packages)('packages/%s has no import cycle among its modules', (pkg) => {
    expect(cyclesIn(pkg, VALUE_IMPORT)).toEqual([]);
  });

  it.each(packages)('packages/%s has no cycle of type-only imports either', (pkg) => {
    expect(cyclesIn(pkg, ANY_IMPORT)).toEqual([]);
  });

  it('type-only imports are part of the type graph, not of the value graph', () => {
    const line = "import type { A } from './a.js';\nexport type { B } from './b.js';\nimport { c } from './c.js';";
    expect([...line.matchAll(VALUE_IMPORT)].map((m) => m[1])).toEqual(['./c.js']);
    expect([...line.matchAll(ANY_IMPORT)].map((m) => m[1])).toEqual(['./a.js', './b.js', './c.js']);
  });

  it('the check finds a cycle when there is one', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
          ['/x/c.ts', [a]],
        ]),
      ),
    ).toHaveLength(1);
  });
});
