import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tsConfigOutside } from './ts-project.js';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-tsproj-')));
afterAll(() => rmSync(top, { recursive: true, force: true }));
let n = 0;
/** A fresh workspace holding `files`; returns its root. */
function ws(files: Record<string, string>): string {
  const root = join(top, `w${++n}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('tsConfigOutside', () => {
  it('follows extends (a path without .json, an array) and names the file pointing out', () => {
    const root = ws({
      'tsconfig.json': '{\n  // base\n  "extends": ["./cfg/a", "./cfg/b.json"],\n  "include": ["src"]\n}\n',
      'cfg/a.json': '{ "compilerOptions": { "types": ["node"] } }',
      'cfg/b.json': '{ "files": ["../src/x.ts"] }',
    });
    expect(tsConfigOutside(root, root)).toBeUndefined();
    writeFileSync(join(root, 'cfg', 'b.json'), '{ "extends": "../../elsewhere/base.json" }');
    expect(tsConfigOutside(root, root)).toBe(
      "cfg/b.json points the TypeScript compiler at '../../elsewhere/base.json', outside the workspace",
    );
  });

  it('an extended package counts when its folder in node_modules leads out (not into another installed package)', () => {
    const root = ws({
      'jsconfig.json': '{ "extends": "@tsconfig/strictest/tsconfig.json" }',
      'node_modules/@tsconfig/strictest/tsconfig.json': '{}',
    });
    expect(tsConfigOutside(root, root)).toBeUndefined();
    const linked = ws({ 'tsconfig.json': '{ "extends": "@tsconfig/strictest/tsconfig.json" }' });
    mkdirSync(join(linked, 'node_modules', '@tsconfig'), { recursive: true });
    const evil = ws({ 'tsconfig.json': '{ "compilerOptions": { "types": ["SECRET"] } }' });
    symlinkSync(evil, join(linked, 'node_modules', '@tsconfig', 'strictest'));
    expect(tsConfigOutside(linked, linked)).toContain(
      "tsconfig.json extends '@tsconfig/strictest/tsconfig.json': its package folder leads to",
    );
  });

  it('where the compiler writes (outDir, declarationDir, outFile) does not count unless the build is incremental', () => {
    const root = ws({
      'tsconfig.json':
        '{ "compilerOptions": { "outDir": "../dist", "declarationDir": "/tmp/decl", "outFile": "../x.js", "sourceRoot": "/src" } }',
    });
    expect(tsConfigOutside(root, root)).toBeUndefined();
    writeFileSync(
      join(root, 'tsconfig.json'),
      '{ "extends": "./base.json", "compilerOptions": { "outDir": "../dist" } }',
    );
    writeFileSync(join(root, 'base.json'), '{ "compilerOptions": { "composite": true } }');
    expect(tsConfigOutside(root, root)).toBe(
      "tsconfig.json points the TypeScript compiler at '../dist', outside the workspace",
    );
    writeFileSync(join(root, 'base.json'), '{ "compilerOptions": { "types": ["../types"] } }');
    expect(tsConfigOutside(root, root)).toBe(
      "base.json points the TypeScript compiler at '../types', outside the workspace",
    );
  });
});
