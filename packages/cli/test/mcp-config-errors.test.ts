// A wrong `mcpServers` entry in a3s.config.json is named by the key that is wrong (`command` of
// the wrong type is not a missing `command`) with the file, line and column, as other config
// errors are, and is a configuration error (exit 2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s } from './kit.js';

function workspaceWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-mcp-config-'));
  writeFileSync(join(dir, 'a3s.config.json'), config);
  return dir;
}

describe('a3s with a wrong mcpServers entry', () => {
  it('MCP-08: a command that is not a string is named as such, with file:line:col (exit 2)', () => {
    const dir = workspaceWith('{\n  "mcpServers": {\n    "x": { "command": 5 }\n  }\n}\n');
    const r = a3s(['tools', '--cwd', dir, '--trust-workspace']);
    expect(r.stderr).toContain('mcpServers.x.command: must be a non-empty string');
    expect(r.stderr).toContain(`(in ${join(dir, 'a3s.config.json')}:3:23)`);
    expect(r.stderr).not.toContain('needs exactly one of');
    expect(r.status).toBe(2);
  });

  it('MCP-08: a url that is not http(s) is named with file:line:col (exit 2)', () => {
    const dir = workspaceWith('{\n  "mcpServers": {\n    "x": { "url": "ftp://x" }\n  }\n}\n');
    const r = a3s(['tools', '--cwd', dir, '--trust-workspace']);
    expect(r.stderr).toContain('mcpServers.x.url: must be an http:// or https:// URL');
    expect(r.stderr).toContain(`(in ${join(dir, 'a3s.config.json')}:3:19)`);
    expect(r.status).toBe(2);
  });
});
