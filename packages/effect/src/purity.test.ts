import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `effect` is pure: no I/O, no clock, no randomness, no runtime dependencies. Checked on the
// sources and on the built output, so that no bundler step can sneak an import in.
const pkg = join(import.meta.dirname, '..');

function files(dir: string, keep: (f: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p, keep) : keep(p) ? [p] : [];
  });
}

const FORBIDDEN: [RegExp, string][] = [
  [/from\s+['"](node:|fs|path|os|child_process|crypto|worker_threads|net|http)/, 'a Node built-in import'],
  [/\bimport\s*\(/, 'a dynamic import'],
  [/\brequire\s*\(/, 'require()'],
  [/\bprocess\./, 'process'],
  [/\bDate\.now\s*\(|\bnew Date\s*\(/, 'the clock'],
  [/\bperformance\./, 'the clock'],
  [/\bMath\.random\s*\(|\bcrypto\.getRandomValues|\brandomUUID\b/, 'randomness'],
  [/\bset(Timeout|Interval|Immediate)\s*\(|\bqueueMicrotask\s*\(/, 'timers'],
  [/\bfetch\s*\(|\bXMLHttpRequest\b|\bWebSocket\b/, 'network'],
];

describe('effect purity', () => {
  it('its sources use no Node built-ins, process, clock, randomness, timers or network', () => {
    const src = files(join(pkg, 'src'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(src.length).toBeGreaterThan(5);
    for (const file of src) {
      const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
      for (const [re, what] of FORBIDDEN) expect(re.test(text), `${file} uses ${what}: ${re}`).toBe(false);
      for (const m of text.matchAll(/from\s+['"]([^'"]+)['"]/g)) {
        expect(m[1]!.startsWith('./'), `${file} imports ${m[1]}: only relative imports are allowed`).toBe(true);
      }
    }
  });

  it('its built dist imports nothing at all', () => {
    const dist = join(pkg, 'dist');
    expect(existsSync(join(dist, 'index.js')), 'packages/effect/dist is missing: run the build (npm test does)').toBe(
      true,
    );
    const js = files(dist, (f) => f.endsWith('.js'));
    for (const file of js) {
      const text = readFileSync(file, 'utf8');
      expect(
        /^\s*import\b|\bimport\s*\(|\brequire\s*\(|^\s*export\s+[^;]*\bfrom\s/m.test(text),
        `${file} imports something`,
      ).toBe(false);
      for (const [re, what] of FORBIDDEN) expect(re.test(text), `${file} uses ${what}`).toBe(false);
    }
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.sideEffects).toBe(false);
  });
});
