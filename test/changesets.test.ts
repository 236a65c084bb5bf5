import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A changeset names packages by their npm names: one naming a folder (`@a3s-code/sdk-node`) or a
// package that does not exist stops `changeset version` at release time, far from the change.
const root = resolve(import.meta.dirname, '..');
const packages = new Set(
  readdirSync(join(root, 'packages')).map(
    (dir) => (JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { name: string }).name,
  ),
);

describe('changesets', () => {
  it('each names only packages of the repository, each once, with a bump and a summary', () => {
    const folder = join(root, '.changeset');
    const problems: string[] = [];
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
      const text = readFileSync(join(folder, file), 'utf8');
      const m = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(text);
      if (m === null) {
        problems.push(`${file}: no front matter`);
        continue;
      }
      const names: string[] = [];
      // An empty front matter is a changeset that bumps nothing (a change to the repository only).
      for (const line of m[1]!.split('\n').filter((l) => l !== '')) {
        const entry = /^(?:"([^"]+)"|'([^']+)'): (major|minor|patch)$/.exec(line);
        if (entry === null) problems.push(`${file}: '${line}' is not "<package>": major|minor|patch`);
        else {
          const name = (entry[1] ?? entry[2])!;
          if (!packages.has(name)) problems.push(`${file}: ${name} is no package of this repository`);
          else if (names.includes(name)) problems.push(`${file}: ${name} twice`);
          else names.push(name);
        }
      }
      if (m[2]!.trim() === '') problems.push(`${file}: no summary`);
    }
    expect(problems).toEqual([]);
  });
});
