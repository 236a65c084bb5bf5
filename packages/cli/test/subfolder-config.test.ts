// A run in a subfolder of a git repository uses the repository's config file (its deny rules
// meaning what they meant at its root), says which file it uses, and has the root's AGENTS.md in
// its system prompt; a rule that cannot keep its meaning there refuses the run, naming it.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

function repoWithConfig(config: unknown): { root: string; pkg: string } {
  const root = tempRepo();
  const pkg = join(root, 'pkg');
  mkdirSync(join(pkg, 'secret'), { recursive: true });
  writeFileSync(join(pkg, '.env'), 'SECRET=hunter2\n');
  writeFileSync(join(root, 'secret.txt'), 'root secret\n');
  writeFileSync(join(pkg, 'secret.txt'), 'pkg notes\n');
  writeFileSync(join(root, 'a3s.config.json'), JSON.stringify(config));
  return { root, pkg };
}

const readTurns = (...paths: string[]) => [
  { tool_calls: paths.map((p, i) => ({ id: `r${i}`, name: 'read', args: { file_path: p } })) },
  { text: 'done' },
];

/** The log of the only session run in `dir`. */
function sessionLog(dir: string): string {
  const logs = join(dir, '.a3s', 'effect-log');
  const [file] = readdirSync(logs).filter((f) => f.endsWith('.jsonl'));
  return readFileSync(join(logs, file!), 'utf8');
}

describe('a run in a subfolder of a git repository', () => {
  it("applies the root's a3s.config.json with its rules anchored at the root, and names the file", () => {
    const { root, pkg } = repoWithConfig({ permissions: { deny: ['Read(**/.env)', 'Read(secret.txt)'] } });
    const model = `scripted:${scriptFile(readTurns('.env', 'secret.txt', join(root, 'secret.txt')))}`;
    const r = a3s(['run', '--model', model, '--cwd', pkg, 'read them']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`config: ${join(root, 'a3s.config.json')} (the nearest config file above ${pkg}`);
    expect(r.stdout).not.toContain('hunter2');
    expect(r.stdout).not.toContain('root secret');
    // `secret.txt` was written for the root: pkg/secret.txt is another file, and is read.
    expect(r.stdout).toContain('pkg notes');
    expect(r.stdout).toContain(`denied by rule Read(/${root}/**/.env)`);
    expect(r.stdout).toContain(`denied by rule Read(/${root}/secret.txt)`);
  });

  it("has the root's AGENTS.md, then its own, in the system prompt", () => {
    const { root, pkg } = repoWithConfig({});
    writeFileSync(join(root, 'AGENTS.md'), 'Always answer in French.\n');
    writeFileSync(join(pkg, 'AGENTS.md'), 'Use tabs in this package.\n');
    const r = a3s(['run', '--model', `scripted:${scriptFile([{ text: 'ok' }])}`, '--cwd', pkg, 'hi']);
    expect(r.status, r.stderr).toBe(0);
    const log = sessionLog(pkg);
    const rootAt = log.indexOf('Workspace instructions (../AGENTS.md)\\nAlways answer in French.');
    const ownAt = log.indexOf('Workspace instructions (AGENTS.md)\\nUse tabs in this package.');
    expect(rootAt).toBeGreaterThan(-1);
    expect(ownAt).toBeGreaterThan(rootAt);
  });

  it('refuses a rule of the root config that cannot keep its meaning in the subfolder, naming it and the file', () => {
    const { root, pkg } = repoWithConfig({ permissions: { deny: ['Read(**/.env)', 'Read(../shared/**)'] } });
    const r = a3s(['run', '--model', `scripted:${scriptFile(readTurns('.env'))}`, '--cwd', pkg, 'read it']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('permissions.deny[1]');
    expect(r.stderr).toContain(`rule 'Read(../shared/**)' of ${join(root, 'a3s.config.json')} cannot be applied`);
    expect(r.stdout).not.toContain('hunter2');
  });

  it("holds the root config to the same trust as the folder's own", () => {
    const { root, pkg } = repoWithConfig({ permissions: { allow: ['Bash(echo:*)'] } });
    const r = a3s(['run', '--model', `scripted:${scriptFile([{ text: 'ok' }])}`, '--cwd', pkg, 'hi']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`WORKSPACE_UNTRUSTED: ${join(root, 'a3s.config.json')} would:`);
    const trusted = a3s([
      'run',
      '--trust-workspace',
      '--model',
      `scripted:${scriptFile([{ text: 'ok' }])}`,
      '--cwd',
      pkg,
      'hi',
    ]);
    expect(trusted.status, trusted.stderr).toBe(0);
  });

  it('never looks above the git repository', () => {
    const { root } = repoWithConfig({ permissions: { deny: ['Read(**/.env)'] } });
    const inner = join(root, 'vendor', 'lib');
    mkdirSync(inner, { recursive: true });
    // A repository of its own inside the outer one (a nested clone): its root is the boundary.
    mkdirSync(join(inner, '.git'));
    writeFileSync(join(inner, '.env'), 'INNER=visible\n');
    const r = a3s(['run', '--model', `scripted:${scriptFile(readTurns('.env'))}`, '--cwd', inner, 'read it']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('config:');
    expect(r.stdout).toContain('INNER=visible');
  });
});
