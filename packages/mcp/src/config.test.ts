import { describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/core';
import { parseMcpServers } from './config.js';
import { McpConfigError } from './errors.js';

function fieldOf(value: unknown): string {
  try {
    parseMcpServers(value);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    expect(A3sError.hasCode(error, 'MCP_CONFIG')).toBe(true);
    return `${(error as McpConfigError).field} | ${(error as Error).message}`;
  }
  throw new Error('did not throw');
}

describe('mcpServers configuration', () => {
  it('accepts stdio and remote entries', () => {
    const parsed = parseMcpServers({
      github: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: 'x' }, cwd: '/tmp', timeoutMs: 5000 },
      docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' }, transport: 'sse' },
      'my_server-2': { url: 'http://127.0.0.1:3000/mcp' },
    });
    expect(Object.keys(parsed)).toEqual(['github', 'docs', 'my_server-2']);
    expect(parsed.github).toMatchObject({ command: 'npx', args: ['-y', 'server-github'] });
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(parseMcpServers(undefined)).toEqual({});
  });

  it("takes a Claude Code .mcp.json entry's type when it agrees with the entry; http and sse set the transport", () => {
    const parsed = parseMcpServers({
      fs: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
      api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } },
      events: { type: 'sse', url: 'https://example.com/sse' },
      both: { type: 'sse', transport: 'sse', url: 'https://example.com/sse' },
      // Set to undefined by a host building entries in code: left out, as any key.
      built: { type: undefined, command: 'node' },
    });
    expect(parsed).toEqual({
      built: { command: 'node' },
      fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
      api: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' }, transport: 'streamable-http' },
      events: { url: 'https://example.com/sse', transport: 'sse' },
      both: { url: 'https://example.com/sse', transport: 'sse' },
    });
  });

  it('refuses a type that contradicts the entry, or that is not stdio, http or sse, naming what the entry takes', () => {
    const stdio = "this entry has `command` (a stdio server): its type is 'stdio', or leave type out";
    const remote =
      "this entry has `url` (a remote server): its type is 'http' (Streamable HTTP) or 'sse', or leave type out";
    expect(fieldOf({ fs: { type: 'http', command: 'npx' } })).toBe(
      `mcpServers.fs.type | mcpServers.fs.type: 'http' contradicts the entry: ${stdio}`,
    );
    expect(fieldOf({ api: { type: 'stdio', url: 'https://example.com/mcp' } })).toBe(
      `mcpServers.api.type | mcpServers.api.type: 'stdio' contradicts the entry: ${remote}`,
    );
    expect(fieldOf({ fs: { type: 'local', command: 'npx' } })).toBe(
      `mcpServers.fs.type | mcpServers.fs.type: must be 'stdio', 'http' or 'sse' (as in Claude Code's .mcp.json), not "local"; ${stdio}`,
    );
    expect(fieldOf({ api: { type: 3, url: 'https://example.com/mcp' } })).toBe(
      `mcpServers.api.type | mcpServers.api.type: must be 'stdio', 'http' or 'sse' (as in Claude Code's .mcp.json), not a number; ${remote}`,
    );
    expect(fieldOf({ api: { type: 'http', transport: 'sse', url: 'https://example.com/mcp' } })).toBe(
      `mcpServers.api.type | mcpServers.api.type: 'http' means transport 'streamable-http', but transport is "sse": keep one of them`,
    );
  });

  it('errors name the key path and what is allowed', () => {
    expect(fieldOf({ github: { command: '' } })).toMatch(/^mcpServers\.github\.command \| .*non-empty/);
    expect(fieldOf({ github: { command: 'x', args: ['a', 3] } })).toMatch(/^mcpServers\.github\.args\[1\] \| /);
    expect(fieldOf({ github: { command: 'x', comand: 'y' } })).toMatch(
      /^mcpServers\.github\.comand \| .*not a known key/,
    );
    expect(fieldOf({ github: { command: 'x', url: 'http://a' } })).toMatch(
      /^mcpServers\.github\.url \| .*either stdio/,
    );
    expect(fieldOf({ github: {} })).toMatch(/^mcpServers\.github \| .*`command`.*`url`/);
    expect(fieldOf({ docs: { url: 'ftp://example.com' } })).toMatch(/^mcpServers\.docs\.url \| .*http/);
    expect(fieldOf({ docs: { url: 'http://a.b', transport: 'ws' } })).toMatch(/^mcpServers\.docs\.transport \| /);
    expect(fieldOf({ docs: { url: 'http://a.b', headers: { a: 1 } } })).toMatch(/^mcpServers\.docs\.headers\.a \| /);
    expect(fieldOf({ github: { command: 'x', timeoutMs: 0 } })).toMatch(/^mcpServers\.github\.timeoutMs \| /);
    expect(fieldOf({ a__b: { command: 'x' } })).toMatch(/^mcpServers\.a__b \| .*no '__'/);
    expect(fieldOf({ 'bad name': { command: 'x' } })).toMatch(/^mcpServers\.bad name \| /);
    expect(fieldOf({ trailing_: { command: 'x' } })).toMatch(/^mcpServers\.trailing_ \| /);
    expect(fieldOf([])).toMatch(/^mcpServers \| /);
  });

  it('a url with credentials (user:password@) is refused without showing them', () => {
    for (const url of [
      'http://user:s3cretpw@127.0.0.1:9/mcp',
      'https://s3cretpw@example.com/mcp',
      'https://:s3cretpw@x.org',
    ]) {
      const got = fieldOf({ docs: { url } });
      expect(got).toMatch(/^mcpServers\.docs\.url \| .*must not contain credentials.*headers/);
      expect(got).not.toContain('s3cretpw');
    }
    expect(parseMcpServers({ docs: { url: 'https://example.com/mcp?u=a@b' } }).docs).toBeDefined();
  });

  it('an unknown key lists the allowed keys of its kind; a value of the wrong type says what it must be', () => {
    expect(fieldOf({ a: { command: 'x', bogus: 1 } })).toBe(
      'mcpServers.a.bogus | mcpServers.a.bogus: is not a known key of a stdio server (command); allowed keys: command, type, args, env, cwd, stderrBytes, enabled, timeoutMs, connectTimeoutMs, maxMessageBytes',
    );
    expect(fieldOf({ a: { url: 'http://a.b', args: [] } })).toBe(
      'mcpServers.a.args | mcpServers.a.args: is not a known key of a remote server (url); allowed keys: url, type, headers, transport, enabled, timeoutMs, connectTimeoutMs, maxMessageBytes',
    );
    expect(fieldOf({ a: { command: 'x', args: '-y pkg' } })).toBe(
      'mcpServers.a.args | mcpServers.a.args: must be an array of strings, e.g. ["-y", "@modelcontextprotocol/server-github"], not a string',
    );
    expect(fieldOf({ a: { command: 'x', args: ['a', 3] } })).toBe(
      'mcpServers.a.args[1] | mcpServers.a.args[1]: must be a string, not a number',
    );
    expect(fieldOf({ a: { command: 'x', env: ['A=1'] } })).toBe(
      'mcpServers.a.env | mcpServers.a.env: must be an object of string values, e.g. { "TOKEN": "..." }, not an array',
    );
    expect(fieldOf({ a: { url: 'http://a.b', headers: { h: 1 } } })).toBe(
      'mcpServers.a.headers.h | mcpServers.a.headers.h: must be a string, not a number',
    );
    expect(fieldOf({ a: { command: 'x', enabled: 'yes' } })).toBe(
      'mcpServers.a.enabled | mcpServers.a.enabled: must be true or false, not a string',
    );
  });

  it('maxMessageBytes is an integer in 1024..268435456, for stdio and remote entries alike', () => {
    const parsed = parseMcpServers({
      local: { command: 'x', maxMessageBytes: 1024 },
      remote: { url: 'http://127.0.0.1:1/mcp', maxMessageBytes: 268_435_456 },
    });
    expect(parsed.local?.maxMessageBytes).toBe(1024);
    expect(parsed.remote?.maxMessageBytes).toBe(268_435_456);
    expect(fieldOf({ a: { command: 'x', maxMessageBytes: 1023 } })).toBe(
      'mcpServers.a.maxMessageBytes | mcpServers.a.maxMessageBytes: must be at least 1024 bytes',
    );
    expect(fieldOf({ a: { url: 'http://a.b', maxMessageBytes: 268_435_457 } })).toBe(
      'mcpServers.a.maxMessageBytes | mcpServers.a.maxMessageBytes: must be at most 268435456 bytes (256 MiB)',
    );
    expect(fieldOf({ a: { url: 'http://a.b', maxMessageBytes: 2048.5 } })).toMatch(
      /^mcpServers\.a\.maxMessageBytes \| .*integer/,
    );
    expect(fieldOf({ a: { command: 'x', maxMessageBytes: '10MB' } })).toMatch(/^mcpServers\.a\.maxMessageBytes \| /);
  });
});
