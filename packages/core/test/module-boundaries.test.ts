// The four concerns of core stay separate modules: configuration resolution (`config/`, the
// session options and the resolved value), per-run execution (`run/`), the wire contract
// (`events/`) and persistence (`store/` and the session stores). The build kernel
// (`session/session-build.ts`) is where they meet: it opens the stores the resolved value holds.
// Checked on value imports of the shipped sources; type-only imports describe shapes and are allowed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : files(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [relative(src, p)] : [];
  });
}

/** The core modules a source imports at run time (relative imports that are not type-only). */
export function valueImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+'(\.[^']+)'/gms)) {
    if (m[1]) continue;
    const clause = m[2]!;
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    if (named && named[1]!.split(',').every((x) => x.trim() === '' || x.trim().startsWith('type '))) continue;
    out.push(normalize(join(dirname(file), m[3]!)).replace(/\.js$/, '.ts'));
  }
  return out;
}

const all = files(src);
const imports = new Map(all.map((f) => [f, valueImports(f, readFileSync(join(src, f), 'utf8'))]));

const CONFIG = (f: string) =>
  f.startsWith('config/') || ['session/session-options.ts', 'session/resolved-session-config.ts'].includes(f);
const RUN = (f: string) => f.startsWith('run/');
const WIRE = (f: string) => f.startsWith('events/');
const PERSIST = (f: string) =>
  f.startsWith('store/') ||
  [
    'session/file-session-store.ts',
    'session/memory-session-store.ts',
    'session/session-store.ts',
    'session/snapshot-parse.ts',
    'session/snapshot-types.ts',
    'session/atomic-file.ts',
  ].includes(f);
/** Concrete persistence: what opens, writes or parses stored files (interfaces are not in it). */
const PERSIST_IMPL = (f: string) =>
  PERSIST(f) && !['store/fact-store.ts', 'session/session-store.ts', 'session/snapshot-types.ts'].includes(f);
/** A module that imports nothing of core at run time: plain data shapes and pure helpers over them. */
const LEAF = (f: string) => (imports.get(f) ?? []).length === 0;

function crossings(from: (f: string) => boolean, to: (f: string) => boolean, allow = (_: string) => false) {
  return all.flatMap((f) =>
    from(f) ? (imports.get(f) ?? []).filter((t) => to(t) && !from(t) && !allow(t)).map((t) => `${f} -> ${t}`) : [],
  );
}

describe('core module boundaries', () => {
  it('ARCH-07: configuration, per-run execution, the wire contract and persistence stay separate modules', () => {
    expect(all.filter(CONFIG).length).toBeGreaterThan(5);
    expect(all.filter(RUN).length).toBeGreaterThan(5);
    expect(all.filter(WIRE).length).toBeGreaterThan(2);
    expect(all.filter(PERSIST).length).toBeGreaterThan(5);
    // The wire contract depends on none of the others.
    expect(crossings(WIRE, (t) => CONFIG(t) || RUN(t) || PERSIST(t))).toEqual([]);
    // Resolution never runs anything, writes anything or shapes events.
    expect(crossings(CONFIG, (t) => RUN(t) || WIRE(t) || PERSIST_IMPL(t))).toEqual([]);
    // A run reads the resolved value only, and stores through interfaces, never a file format.
    expect(crossings(RUN, (t) => CONFIG(t) || PERSIST_IMPL(t))).toEqual([]);
    // Persistence knows nothing of resolution, events or the run machinery (shared leaf shapes aside).
    expect(crossings(PERSIST, (t) => CONFIG(t) || WIRE(t) || (RUN(t) && !LEAF(t)))).toEqual([]);
  });

  it('the import check sees value imports and skips type-only ones', () => {
    const text = [
      "import type { A } from '../run/a.js';",
      "import { type B, type C } from '../run/b.js';",
      "import { D, type E } from '../run/d.js';",
      "export { F } from '../config/f.js';",
      "import * as G from './g.js';",
    ].join('\n');
    expect(valueImports('events/x.ts', text)).toEqual(['run/d.ts', 'config/f.ts', 'events/g.ts']);
  });
});
