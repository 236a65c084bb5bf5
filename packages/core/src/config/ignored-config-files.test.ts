// A workspace with both `a3s.config.json` and `.a3s/config.json` reads the first only (the
// documented order): the other is named by ignoredConfigFiles, so a host can say its rules
// (a deny rule too) do not apply rather than drop them without a word.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfigFile, ignoredConfigFiles } from './load-config.js';

describe('ignoredConfigFiles', () => {
  it('names .a3s/config.json when a3s.config.json comes first; none with one file or none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-ignored-config-'));
    expect(await ignoredConfigFiles(dir)).toEqual([]);
    mkdirSync(join(dir, '.a3s'));
    writeFileSync(join(dir, '.a3s', 'config.json'), '{"permissions":{"deny":["Bash(ls:*)"]}}');
    expect(await ignoredConfigFiles(dir)).toEqual([]);
    expect(await findConfigFile(dir)).toBe(join(dir, '.a3s', 'config.json'));
    writeFileSync(join(dir, 'a3s.config.json'), '{"permissions":{"ask":["Bash(git push:*)"]}}');
    expect(await findConfigFile(dir)).toBe(join(dir, 'a3s.config.json'));
    expect(await ignoredConfigFiles(dir)).toEqual([join(dir, '.a3s', 'config.json')]);
  });
});
