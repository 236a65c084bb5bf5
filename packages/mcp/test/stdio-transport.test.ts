import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProcessGroupStdioTransport } from '../src/index.js';
import { fixturePath, processGone, procStat } from './kit.js';

describe('ProcessGroupStdioTransport with the SDK client', () => {
  it('MCP-07 / MCP-08 / MCP-09: a drop-in SDK Transport that owns the process group', async () => {
    const transport = new ProcessGroupStdioTransport({
      command: process.execPath,
      args: [fixturePath('test-server.mjs'), '--name', 'raw', '--child'],
      killGraceMs: 200,
    });
    const client = new Client({ name: 'raw-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;
    expect(procStat(pid)?.pgrp).toBe(pid);
    const result = await client.callTool({ name: 'pid', arguments: {} });
    const { child } = JSON.parse((result.content as { text: string }[])[0]!.text) as { child: number };
    expect(transport.stderr.text()).toContain('server raw ready');
    expect(transport.closeInfo).toBeUndefined();
    await client.close();
    expect(transport.closeInfo?.reason).toBe('closed by host');
    expect(processGone(pid) && processGone(child)).toBe(true);
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(/closed/);
  });
});
