import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonOutsidePaths } from './python-project.js';

const top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-pyproj-')));
afterAll(() => rmSync(top, { recursive: true, force: true }));
let n = 0;
/** A fresh workspace holding `files`; returns its root. */
function ws(files: Record<string, string>): string {
  const root = join(top, `w${++n}`);
  mkdirSync(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}
const toml = (table: string) => `[project]\nname = "x"\nversion = "0"\n\n${table}\n`;

describe('pythonOutsidePaths', () => {
  it('names the configuration file and the first path that leaves the workspace', () => {
    for (const [files, said] of [
      [{ 'pyrightconfig.json': '{ "extraPaths": ["/etc"] }' }, "pyrightconfig.json points pyright at '/etc'"],
      [
        { 'pyrightconfig.json': '{ "venvPath": "~/venvs", "venv": "x" }' },
        "pyrightconfig.json points pyright at '~/venvs'",
      ],
      [{ 'pyrightconfig.json': '{ "stubPath": "typings/../../other" }' }, "at 'typings/../../other'"],
      [
        { 'pyproject.toml': toml('[tool.pyright]\nextraPaths = ["../sibling"]') },
        "pyproject.toml points pyright at '../sibling'",
      ],
      [
        { 'pyproject.toml': toml("[[tool.pyright.executionEnvironments]]\nroot = '../elsewhere'") },
        "pyproject.toml points pyright at '../elsewhere'",
      ],
    ] as const) {
      const root = ws(files);
      expect(pythonOutsidePaths(root, root), JSON.stringify(files)).toContain(said);
    }
  });

  it('a path inside, another tool’s table, or a folder in a subproject below the workspace root pass', () => {
    const root = ws({
      'pyproject.toml': toml(
        '[tool.black]\nextend-exclude = "../x"\n\n[tool.pyright]\ninclude = ["src", "."]\nextraPaths = ["./lib"]',
      ),
    });
    expect(pythonOutsidePaths(root, root)).toBeUndefined();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'pyrightconfig.json'), '{ "extraPaths": ["../lib"] }');
    expect(pythonOutsidePaths(join(root, 'sub'), root)).toBeUndefined();
    expect(pythonOutsidePaths(ws({}), join(top, 'none'))).toBeUndefined();
  });

  it('a link leading out, a FIFO or an oversized configuration counts as pointing out', () => {
    const linked = ws({ 'pyrightconfig.json': '{ "extraPaths": ["vendor"] }' });
    symlinkSync(top, join(linked, 'vendor'));
    expect(pythonOutsidePaths(linked, linked)).toContain("points pyright at 'vendor', outside the workspace");
    const fifo = ws({});
    execFileSync('mkfifo', [join(fifo, 'pyrightconfig.json')]);
    expect(pythonOutsidePaths(fifo, fifo)).toContain('pyrightconfig.json is not a regular file of at most 65536 bytes');
    const big = ws({ 'pyproject.toml': toml(`[tool.pyright]\n# ${'x'.repeat(70_000)}`) });
    expect(pythonOutsidePaths(big, big)).toContain('cannot be checked');
  });

  it('follows extends (a loop ends) and the .pth files of the virtual environment named; inside paths pass', () => {
    const root = ws({ 'pyrightconfig.json': '{ "extends": "./b.json", "venv": "env" }' });
    writeFileSync(join(root, 'b.json'), '{ "extends": "./pyrightconfig.json", "extraPaths": ["lib"] }');
    const site = join(root, 'env', 'lib', 'python3.12', 'site-packages');
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, 'own.pth'), `# comment\nimport sys; sys.path.append('/etc')\n../../../../lib\n`);
    expect(pythonOutsidePaths(root, root)).toBeUndefined();
    writeFileSync(join(root, 'b.json'), '{ "extends": "./pyrightconfig.json", "extraPaths": ["../x"] }');
    expect(pythonOutsidePaths(root, root)).toBe("b.json points pyright at '../x', outside the workspace");
    writeFileSync(join(root, 'b.json'), '{}');
    writeFileSync(join(site, 'z.pth'), '/etc\n');
    expect(pythonOutsidePaths(root, root)).toBe(
      "env/lib/python3.12/site-packages/z.pth adds '/etc' to pyright's search paths, outside the workspace",
    );
  });
});
