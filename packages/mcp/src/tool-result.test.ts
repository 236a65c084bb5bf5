import { describe, expect, it } from 'vitest';
import { TOOL_NAME_RE } from '@a3s-code/core';
import { capabilitiesFromAnnotations, tierFromAnnotations } from './bridge-tool.js';
import { mcpToolName, parseMcpToolName } from './tool-names.js';
import { convertCallResult } from './tool-result.js';

const ctx = { server: 's', tool: 't', toolName: 'mcp__s__t', callId: 'c1' };

describe('result conversion', () => {
  it('joins text, keeps structured content, and maps isError to exit code 1', async () => {
    const r = await convertCallResult(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        structuredContent: { n: 1 },
        isError: true,
      },
      ctx,
    );
    expect(r).toEqual({
      output: 'a\nb',
      exitCode: 1,
      metadata: { mcp_server: 's', mcp_tool: 't', structured_content: { n: 1 } },
    });
  });

  it('uses structured content as the output when there is no text', async () => {
    expect((await convertCallResult({ content: [], structuredContent: { n: 1 } }, ctx)).output).toBe('{"n":1}');
  });

  it('describes binary content in metadata when no artifact store is given', async () => {
    const r = await convertCallResult(
      { content: [{ type: 'audio', data: Buffer.from('abc').toString('base64'), mimeType: 'audio/wav' }] },
      ctx,
    );
    expect(r.metadata?.media).toEqual([
      {
        kind: 'audio',
        mime_type: 'audio/wav',
        size_bytes: 3,
        sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      },
    ]);
    expect(r.output).toBe('[audio audio/wav, 3 bytes: sha256 ba7816bf8f01cfea, not stored]');
  });

  it('keeps resource links and embedded resources', async () => {
    const r = await convertCallResult(
      {
        content: [
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline b' } },
          { type: 'resource', resource: { uri: 'file:///c.bin', blob: Buffer.from([1, 2]).toString('base64') } },
        ],
      },
      ctx,
    );
    expect(r.output.split('\n')).toEqual([
      '[resource a.txt: file:///a.txt]',
      'inline b',
      expect.stringMatching(/^\[blob application\/octet-stream, 2 bytes from file:\/\/\/c\.bin/),
    ]);
    expect(r.metadata?.resource_links).toEqual([{ uri: 'file:///a.txt', name: 'a.txt', mime_type: 'text/plain' }]);
  });

  it('accepts the 2024-10-07 toolResult shape', async () => {
    expect(await convertCallResult({ toolResult: { ok: true } }, ctx)).toMatchObject({
      output: '{"ok":true}',
      exitCode: 0,
    });
  });
});

describe('annotations and names', () => {
  it('tier: readOnlyHint → read, destructiveHint → write, otherwise exec', () => {
    expect(tierFromAnnotations({ readOnlyHint: true, destructiveHint: true })).toBe('read');
    expect(tierFromAnnotations({ destructiveHint: true })).toBe('write');
    expect(tierFromAnnotations({ readOnlyHint: false, destructiveHint: false })).toBe('exec');
    expect(tierFromAnnotations(undefined)).toBe('exec');
  });

  it('unknown annotations mean mutating and not parallel-safe', () => {
    expect(capabilitiesFromAnnotations(undefined)).toMatchObject({
      readOnly: false,
      idempotent: false,
      maxParallelism: 1,
    });
    expect(capabilitiesFromAnnotations({ idempotentHint: true })).toMatchObject({
      readOnly: false,
      idempotent: true,
      maxParallelism: 1,
    });
    expect(capabilitiesFromAnnotations({ readOnlyHint: true })).toMatchObject({
      readOnly: true,
      idempotent: true,
      maxParallelism: 16,
    });
  });

  it('SURF-09: mcp__<server>__<tool>, always a valid tool name', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('gh', 'repos/list files')).toBe('mcp__gh__repos_list_files');
    const long = mcpToolName('srv', 'x'.repeat(300));
    expect(long).toHaveLength(128);
    expect(TOOL_NAME_RE.test(long)).toBe(true);
    expect(long).not.toBe(mcpToolName('srv', `${'x'.repeat(299)}y`));
    expect(parseMcpToolName('mcp__my_srv__do__it')).toEqual({ server: 'my_srv', tool: 'do__it' });
    expect(parseMcpToolName('read')).toBeUndefined();
  });
});
