// The words of small configuration mistakes: a permission rule that is not one says what a rule
// looks like; an unknown key of an MCP server lists the allowed ones; an `args` that is not an
// array says what it must be, in words and not zod's; a model script saved with a byte-order mark
// plays like any other (a config file with one is accepted too).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s } from './kit.js';

function workspaceWith(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-config-words-'));
  writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify(config));
  return dir;
}

describe('configuration mistakes, in words', () => {
  it('a permission rule that is empty or not a string says what a rule looks like', () => {
    for (const rule of ['', 42]) {
      const r = a3s(['tools', '--cwd', workspaceWith({ permissions: { deny: [rule] } }), '--trust-workspace']);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        "permissions.deny[0]: must be a permission rule: 'Tool' or 'Tool(pattern)', e.g. 'Bash(git status:*)' (in ",
      );
    }
  });

  it('an unknown key of an MCP server lists the allowed keys; an args string says it must be an array', () => {
    const bogus = a3s([
      'tools',
      '--cwd',
      workspaceWith({ mcpServers: { a: { command: 'x', bogus: 1 } } }),
      '--trust-workspace',
    ]);
    expect(bogus.status, bogus.stderr).toBe(2);
    expect(bogus.stderr).toContain(
      'mcpServers.a.bogus: is not a known key of a stdio server (command); allowed keys: command, type, args, env, cwd, stderrBytes, enabled, timeoutMs, connectTimeoutMs, maxMessageBytes',
    );
    const remote = a3s([
      'tools',
      '--cwd',
      workspaceWith({ mcpServers: { a: { url: 'https://example.com/mcp', command2: 'x' } } }),
      '--trust-workspace',
    ]);
    expect(remote.stderr).toContain(
      'mcpServers.a.command2: is not a known key of a remote server (url); allowed keys: url, type, headers, transport,',
    );
    const args = a3s([
      'tools',
      '--cwd',
      workspaceWith({ mcpServers: { a: { command: 'x', args: '-y pkg' } } }),
      '--trust-workspace',
    ]);
    expect(args.status, args.stderr).toBe(2);
    expect(args.stderr).toContain('mcpServers.a.args: must be an array of strings, e.g. ["-y", ');
    expect(args.stderr).toContain(', not a string');
    expect(args.stderr).not.toContain('Invalid input');
  });

  it('a model script with a UTF-8 byte-order mark plays; a broken one is named by file:line:col', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-bom-'));
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${JSON.stringify({ turns: [{ text: 'Hello through a BOM.' }] })}`);
    const r = a3s(['run', '--cwd', dir, '--model', `scripted:${join(dir, 'bom.json')}`, 'hi']);
    expect(r.stderr).not.toContain('Unexpected token');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello through a BOM.');
    writeFileSync(join(dir, 'broken.json'), '\uFEFF{"turns": [\n  {"text": }\n]}');
    const broken = a3s(['run', '--cwd', dir, '--model', `scripted:${join(dir, 'broken.json')}`, 'hi']);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain(`(${join(dir, 'broken.json')}:2:12)`);
  });
});
