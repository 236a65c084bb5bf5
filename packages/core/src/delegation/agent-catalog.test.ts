import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/effect';
import { loadAgentCatalog, WORKSPACE_AGENT_DIR } from './agent-catalog.js';

function workspaceWithAgent(name: string, text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-agents-'));
  mkdirSync(join(dir, WORKSPACE_AGENT_DIR), { recursive: true });
  const file = join(dir, WORKSPACE_AGENT_DIR, name);
  writeFileSync(file, text);
  return { dir, file };
}

function refusal(f: () => unknown): A3sError {
  try {
    f();
  } catch (e) {
    if (e instanceof A3sError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('agent files of a workspace', () => {
  it('EXT-01: an agent file larger than 1 MiB is refused naming it and what is allowed, never read', () => {
    const { dir, file } = workspaceWithAgent('huge.md', '---\nname: huge\ndescription: d\n---\n');
    // A sparse file past the limit (a real one could be gigabytes, read whole into memory).
    truncateSync(file, 2 * 1024 ** 2);
    const e = refusal(() => loadAgentCatalog(dir, []));
    expect(e.code).toBe('SESSION_CONFIGURATION');
    expect(e.message).toContain(file);
    expect(e.message).toMatch(
      /is 2097152 bytes; allowed: a regular file of at most 1048576 bytes inside its agents folder/,
    );
  });

  it('EXT-01: a repeated front-matter key is refused naming the file and both lines', () => {
    const { dir, file } = workspaceWithAgent(
      'twice.md',
      '---\nname: reviewer\ndescription: reads only\ntools: [read]\ntools: [bash]\n---\nReview.\n',
    );
    const e = refusal(() => loadAgentCatalog(dir, []));
    expect(e.message).toContain(`${file}:5`);
    expect(e.message).toMatch(/duplicate key 'tools' \(first on line 4\); each key may appear once/);
  });

  it('an ordinary agent file still loads', () => {
    const { dir } = workspaceWithAgent(
      'ok.md',
      '---\nname: reviewer\ndescription: reads only\ntools: [read]\n---\nReview.\n',
    );
    expect(loadAgentCatalog(dir, []).get('reviewer')?.tools).toEqual(['read']);
  });
});
